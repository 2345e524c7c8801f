// Command lists: an immediate list is an in-order cl_command_queue (profiling on, for kernel
// timestamps) and every append is enqueued at once, flushed, and for a synchronous list waited
// for. Regular lists can be made and closed but nothing can be appended to them (this driver
// does not record): the library must not use them, and its tests check that it refuses them.
#include "ze_driver/ze_driver.hpp"

namespace ze_driver {

namespace {

ze_result_t create_list(ze_context_handle_t context, ze_device_handle_t device, bool immediate,
        bool synchronous, ze_command_list_handle_t *list) {
    lock_t lock(objects_mutex());
    auto *c = live<context_t>(context);
    device_t *d = live_device(device);
    if (!c || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!list) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!c->has(d)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    auto l = std::make_unique<command_list_t>();
    l->context = c;
    l->device = d;
    l->synchronous = synchronous;
    if (immediate) {
        const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        cl_int status = CL_SUCCESS;
        l->queue = clCreateCommandQueueWithProperties(c->cl, d->cl, props, &status);
        if (status != CL_SUCCESS) return from_cl(status);
    }
    register_object(l.get(), typeid(command_list_t));
    *list = handle_of<ze_command_list_handle_t>(l.release());
    return ZE_RESULT_SUCCESS;
}

// An append: checks the list and events, then `enqueue(queue, ndeps, deps, done)` where `done`
// is null unless an event is to be signalled.
template <typename F>
ze_result_t append(ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t nwaits,
        ze_event_handle_t *waits, F enqueue) {
    lock_t lock(objects_mutex());
    auto *l = live<command_list_t>(list);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!l->queue) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; // a regular list
    event_t *e = nullptr;
    if (signal && !(e = live<event_t>(signal))) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::vector<cl_event> deps;
    ze_result_t r = collect_waits(nwaits, waits, deps);
    if (r != ZE_RESULT_SUCCESS) return r;
    cl_event done = nullptr;
    const cl_int status = enqueue(l->queue, static_cast<cl_uint>(deps.size()),
            deps.empty() ? nullptr : deps.data(), e ? &done : nullptr);
    return finish_append(lock, l, e, done, status);
}

bool is_power_of_two(size_t v) {
    return v && !(v & (v - 1));
}

} // namespace

ze_result_t finish_append(
        lock_t &lock, command_list_t *list, event_t *signal, cl_event command, cl_int status) {
    if (status != CL_SUCCESS) return from_cl(status);
    if (signal && command) signal_with(signal, command);
    if (command) clReleaseEvent(command);
    cl_command_queue queue = list->queue;
    clFlush(queue); // PoCL starts nothing before a flush: events polled later must progress
    if (list->synchronous) {
        lock.unlock();
        clFinish(queue);
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL list_create(ze_context_handle_t context, ze_device_handle_t device,
        const ze_command_list_desc_t *desc, ze_command_list_handle_t *list) {
    if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return create_list(context, device, false, false, list);
}

ze_result_t ZE_APICALL list_create_immediate(ze_context_handle_t context, ze_device_handle_t device,
        const ze_command_queue_desc_t *desc, ze_command_list_handle_t *list) {
    if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return create_list(
            context, device, true, desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, list);
}

ze_result_t ZE_APICALL list_destroy(ze_command_list_handle_t list) {
    lock_t lock(objects_mutex());
    auto *l = live<command_list_t>(list);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    unregister_object(l);
    lock.unlock();
    if (l->queue) {
        clFinish(l->queue);
        clReleaseCommandQueue(l->queue);
    }
    delete l;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL list_close(ze_command_list_handle_t list) {
    lock_t lock(objects_mutex());
    return live<command_list_t>(list) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ze_result_t ZE_APICALL list_reset(ze_command_list_handle_t list) {
    return list_close(list);
}

ze_result_t ZE_APICALL list_append_barrier(ze_command_list_handle_t list, ze_event_handle_t signal,
        uint32_t nwaits, ze_event_handle_t *waits) {
    return append(list, signal, nwaits, waits,
            [](cl_command_queue q, cl_uint n, const cl_event *deps, cl_event *done) {
                return clEnqueueBarrierWithWaitList(q, n, deps, done);
            });
}

ze_result_t ZE_APICALL list_append_memory_copy(ze_command_list_handle_t list, void *dst,
        const void *src, size_t size, ze_event_handle_t signal, uint32_t nwaits,
        ze_event_handle_t *waits) {
    if (!dst || !src) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return append(list, signal, nwaits, waits,
            [&](cl_command_queue q, cl_uint n, const cl_event *deps, cl_event *done) {
                if (size == 0) return clEnqueueMarkerWithWaitList(q, n, deps, done);
                return clEnqueueSVMMemcpy(q, CL_FALSE, dst, src, size, n, deps, done);
            });
}

ze_result_t ZE_APICALL list_append_memory_fill(ze_command_list_handle_t list, void *ptr,
        const void *pattern, size_t pattern_size, size_t size, ze_event_handle_t signal,
        uint32_t nwaits, ze_event_handle_t *waits) {
    if (!ptr || !pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // OpenCL's limits, which are the maxMemoryFillPatternSize the device reports.
    if (!is_power_of_two(pattern_size) || pattern_size > 128 || size % pattern_size)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    return append(list, signal, nwaits, waits,
            [&](cl_command_queue q, cl_uint n, const cl_event *deps, cl_event *done) {
                if (size == 0) return clEnqueueMarkerWithWaitList(q, n, deps, done);
                return clEnqueueSVMMemFill(q, ptr, pattern, pattern_size, size, n, deps, done);
            });
}

ze_result_t ZE_APICALL list_append_signal_event(
        ze_command_list_handle_t list, ze_event_handle_t signal) {
    if (!signal) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    // In order: a marker completes once everything appended before it has.
    return append(list, signal, 0, nullptr,
            [](cl_command_queue q, cl_uint n, const cl_event *deps, cl_event *done) {
                return clEnqueueMarkerWithWaitList(q, n, deps, done);
            });
}

ze_result_t ZE_APICALL list_append_wait_on_events(
        ze_command_list_handle_t list, uint32_t nwaits, ze_event_handle_t *waits) {
    // A barrier on the in-order queue holds back everything appended after it.
    return append(list, nullptr, nwaits, waits,
            [](cl_command_queue q, cl_uint n, const cl_event *deps, cl_event *done) {
                return n ? clEnqueueBarrierWithWaitList(q, n, deps, done) : CL_SUCCESS;
            });
}

ze_result_t ZE_APICALL list_append_event_reset(
        ze_command_list_handle_t list, ze_event_handle_t event) {
    lock_t lock(objects_mutex());
    auto *l = live<command_list_t>(list);
    if (!l || !live<event_t>(event)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!l->queue) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    // The reset must follow what is already appended: wait for it, then reset on the host.
    cl_command_queue queue = l->queue;
    lock.unlock();
    clFinish(queue);
    return event_host_reset(event);
}

ze_result_t ZE_APICALL list_append_launch_kernel(ze_command_list_handle_t list,
        ze_kernel_handle_t kernel, const ze_group_count_t *groups, ze_event_handle_t signal,
        uint32_t nwaits, ze_event_handle_t *waits) {
    if (!groups) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    kernel_t *k = nullptr;
    {
        lock_t lock(objects_mutex());
        k = live<kernel_t>(kernel);
        auto *l = live<command_list_t>(list);
        if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        if (l && k->module->context != l->context) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    const uint32_t counts[3] = {groups->groupCountX, groups->groupCountY, groups->groupCountZ};
    return append(list, signal, nwaits, waits,
            [&](cl_command_queue q, cl_uint n, const cl_event *deps, cl_event *done) {
                size_t global[3], local[3];
                bool empty = false;
                for (int i = 0; i < 3; ++i) {
                    local[i] = k->group_size[i];
                    global[i] = static_cast<size_t>(counts[i]) * local[i];
                    empty = empty || counts[i] == 0;
                }
                if (empty) return clEnqueueMarkerWithWaitList(q, n, deps, done);
                return clEnqueueNDRangeKernel(q, k->cl, 3, nullptr, global, local, n, deps, done);
            });
}

} // namespace ze_driver
