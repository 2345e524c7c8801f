#include "json.hpp"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace benchdnn {

namespace {

class parser_t {
public:
    explicit parser_t(const std::string &t) : text_(t) {}

    json_value_t document() {
        json_value_t v = value(0);
        skip_space();
        if (pos_ != text_.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    const std::string &text_;
    size_t pos_ = 0;

    [[noreturn]] void fail(const std::string &what) const {
        size_t line = 1, col = 1;
        for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                col = 1;
            } else
                ++col;
        }
        throw std::invalid_argument("JSON line " + std::to_string(line) + ", column "
                                    + std::to_string(col) + ": " + what);
    }

    void skip_space() {
        while (pos_ < text_.size()
                && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n'
                        || text_[pos_] == '\r'))
            ++pos_;
    }

    char peek() {
        skip_space();
        return pos_ < text_.size() ? text_[pos_] : '\0';
    }

    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++pos_;
    }

    bool literal(const char *word) {
        size_t n = 0;
        while (word[n])
            ++n;
        if (text_.compare(pos_, n, word) != 0) return false;
        pos_ += n;
        return true;
    }

    json_value_t value(int depth) {
        if (depth > 64) fail("nesting deeper than 64 levels");
        json_value_t v;
        const char c = peek();
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') {
            v.kind = json_value_t::kind_t::string;
            v.str = string();
        } else if (c == '-' || (c >= '0' && c <= '9'))
            number(v);
        else if (literal("true")) {
            v.kind = json_value_t::kind_t::boolean;
            v.b = true;
        } else if (literal("false"))
            v.kind = json_value_t::kind_t::boolean;
        else if (literal("null"))
            v.kind = json_value_t::kind_t::null;
        else if (c == '\0')
            fail("unexpected end of text");
        else
            fail(std::string("unexpected character '") + c + "'");
        return v;
    }

    json_value_t object(int depth) {
        json_value_t v;
        v.kind = json_value_t::kind_t::object;
        expect('{');
        if (peek() == '}') {
            ++pos_;
            return v;
        }
        for (;;) {
            if (peek() != '"') fail("expected a member name in quotes");
            std::string key = string();
            expect(':');
            v.members.emplace_back(std::move(key), value(depth + 1));
            const char c = peek();
            if (c == ',') {
                ++pos_;
                continue;
            }
            if (c == '}') {
                ++pos_;
                return v;
            }
            fail("expected ',' or '}' in an object");
        }
    }

    json_value_t array(int depth) {
        json_value_t v;
        v.kind = json_value_t::kind_t::array;
        expect('[');
        if (peek() == ']') {
            ++pos_;
            return v;
        }
        for (;;) {
            v.items.push_back(value(depth + 1));
            const char c = peek();
            if (c == ',') {
                ++pos_;
                continue;
            }
            if (c == ']') {
                ++pos_;
                return v;
            }
            fail("expected ',' or ']' in an array");
        }
    }

    std::string string() {
        ++pos_; // opening quote
        std::string s;
        while (pos_ < text_.size() && text_[pos_] != '"') {
            char c = text_[pos_++];
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') {
                s += c;
                continue;
            }
            if (pos_ >= text_.size()) break;
            c = text_[pos_++];
            switch (c) {
            case '"':
            case '\\':
            case '/': s += c; break;
            case 'b': s += '\b'; break;
            case 'f': s += '\f'; break;
            case 'n': s += '\n'; break;
            case 'r': s += '\r'; break;
            case 't': s += '\t'; break;
            case 'u': {
                // Names in graph cases are ASCII: other code points become '?'.
                if (pos_ + 4 > text_.size()) fail("short \\u escape");
                unsigned cp = 0;
                for (int i = 0; i < 4; ++i) {
                    const char h = text_[pos_++];
                    cp <<= 4;
                    if (h >= '0' && h <= '9')
                        cp |= h - '0';
                    else if (h >= 'a' && h <= 'f')
                        cp |= h - 'a' + 10;
                    else if (h >= 'A' && h <= 'F')
                        cp |= h - 'A' + 10;
                    else
                        fail("bad \\u escape");
                }
                s += cp < 0x80 ? static_cast<char>(cp) : '?';
                break;
            }
            default: fail(std::string("unknown escape '\\") + c + "'");
            }
        }
        if (pos_ >= text_.size()) fail("unterminated string");
        ++pos_; // closing quote
        return s;
    }

    void number(json_value_t &v) {
        const size_t start = pos_;
        if (text_[pos_] == '-') ++pos_;
        bool integer = true, digits = false;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c >= '0' && c <= '9')
                digits = true;
            else if (c == '.' || c == 'e' || c == 'E'
                     || ((c == '+' || c == '-') && pos_ > start
                             && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))
                integer = false;
            else
                break;
            ++pos_;
        }
        if (!digits) fail("a number needs digits");
        const std::string t = text_.substr(start, pos_ - start);
        char *end = nullptr;
        errno = 0;
        v.kind = json_value_t::kind_t::number;
        v.num = std::strtod(t.c_str(), &end);
        if (end != t.c_str() + t.size()) fail("bad number '" + t + "'");
        if (integer) {
            errno = 0;
            const long long i = std::strtoll(t.c_str(), &end, 10);
            if (errno == ERANGE) fail("integer '" + t + "' out of range");
            v.is_integer = true;
            v.integer = i;
        }
    }
};

} // namespace

const json_value_t *json_value_t::find(const std::string &key) const {
    for (const auto &m : members)
        if (m.first == key) return &m.second;
    return nullptr;
}

const char *json_kind_name(json_value_t::kind_t k) {
    switch (k) {
    case json_value_t::kind_t::null: return "null";
    case json_value_t::kind_t::boolean: return "a boolean";
    case json_value_t::kind_t::number: return "a number";
    case json_value_t::kind_t::string: return "a string";
    case json_value_t::kind_t::array: return "an array";
    case json_value_t::kind_t::object: return "an object";
    }
    return "?";
}

json_value_t parse_json(const std::string &text) {
    return parser_t(text).document();
}

} // namespace benchdnn
