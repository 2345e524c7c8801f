# The PTX file IN as the C++ string tma_probe_ptx in OUT (a raw string literal).
file(READ ${IN} _text)
file(WRITE ${OUT} "extern const char tma_probe_ptx[];\nconst char tma_probe_ptx[] = R\"PTX(${_text})PTX\";\n")
