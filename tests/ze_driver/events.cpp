// Event pools and events over OpenCL events: a command that signals an event becomes its
// signaler; commands that wait for an event nothing signals yet wait on a user event that the
// later signal (host or command) completes. Kernel timestamps are the signaler's profiling
// counters (every queue profiles).
#include <chrono>
#include <thread>

#include "ze_driver/ze_driver.hpp"

namespace ze_driver {

namespace {

void CL_CALLBACK complete_waiter(cl_event, cl_int status, void *user) {
    auto *waiter = static_cast<std::shared_ptr<waiter_t> *>(user);
    (*waiter)->complete(status < 0 ? status : CL_COMPLETE);
    delete waiter;
}

// Status of `e`, locked: SUCCESS when signalled, NOT_READY, or DEVICE_LOST when its signaling
// command failed.
ze_result_t signal_status(const event_t *e) {
    if (e->host_signalled) return ZE_RESULT_SUCCESS;
    if (!e->signaler) return ZE_RESULT_NOT_READY;
    cl_int status = CL_QUEUED;
    if (clGetEventInfo(
                e->signaler, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr)
            != CL_SUCCESS)
        return ZE_RESULT_ERROR_DEVICE_LOST;
    if (status < 0) return ZE_RESULT_ERROR_DEVICE_LOST;
    return status == CL_COMPLETE ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

void clear_signal(event_t *e) {
    if (e->signaler) clReleaseEvent(e->signaler);
    e->signaler = nullptr;
    e->host_signalled = false;
    // Commands may still wait on an uncompleted waiter: the next signal completes it.
    if (e->waiter && e->waiter->completed) e->waiter.reset();
}

} // namespace

void waiter_t::complete(cl_int status) {
    if (!completed.exchange(true)) clSetUserEventStatus(event, status);
}

waiter_t::~waiter_t() {
    complete(CL_INVALID_EVENT);
    clReleaseEvent(event);
}

ze_result_t wait_dependency(event_t *e, cl_event *dependency) {
    *dependency = nullptr;
    if (e->host_signalled) return ZE_RESULT_SUCCESS;
    if (e->signaler) {
        *dependency = e->signaler;
        return ZE_RESULT_SUCCESS;
    }
    if (!e->waiter) {
        cl_int status = CL_SUCCESS;
        cl_event user = clCreateUserEvent(e->pool->context->cl, &status);
        if (status != CL_SUCCESS) return from_cl(status);
        e->waiter = std::make_shared<waiter_t>();
        e->waiter->event = user;
    }
    *dependency = e->waiter->event;
    return ZE_RESULT_SUCCESS;
}

ze_result_t collect_waits(
        uint32_t nwaits, ze_event_handle_t *waits, std::vector<cl_event> &dependencies) {
    if (nwaits && !waits) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    for (uint32_t i = 0; i < nwaits; ++i) {
        auto *e = live<event_t>(waits[i]);
        if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        cl_event dependency = nullptr;
        ze_result_t r = wait_dependency(e, &dependency);
        if (r != ZE_RESULT_SUCCESS) return r;
        if (dependency) dependencies.push_back(dependency);
    }
    return ZE_RESULT_SUCCESS;
}

void signal_with(event_t *e, cl_event command) {
    if (e->signaler) clReleaseEvent(e->signaler);
    clRetainEvent(command);
    e->signaler = command;
    e->host_signalled = false;
    if (e->waiter && !e->waiter->completed) {
        auto *keep = new std::shared_ptr<waiter_t>(e->waiter);
        if (clSetEventCallback(command, CL_COMPLETE, complete_waiter, keep) != CL_SUCCESS) {
            delete keep;
            e->waiter->complete(CL_COMPLETE); // cannot follow it: release the waiters now
        }
    }
}

ze_result_t ZE_APICALL event_pool_create(ze_context_handle_t context,
        const ze_event_pool_desc_t *desc, uint32_t ndevices, ze_device_handle_t *devices,
        ze_event_pool_handle_t *pool) {
    lock_t lock(objects_mutex());
    auto *c = live<context_t>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !pool || (ndevices && !devices)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < ndevices; ++i)
        if (!live_device(devices[i])) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    auto *p = new event_pool_t;
    p->context = c;
    p->flags = desc->flags;
    p->used.assign(desc->count, false);
    register_object(p, typeid(event_pool_t));
    *pool = handle_of<ze_event_pool_handle_t>(p);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_pool_destroy(ze_event_pool_handle_t pool) {
    lock_t lock(objects_mutex());
    auto *p = live<event_pool_t>(pool);
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    for (bool used : p->used)
        if (used) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE; // its events first
    unregister_object(p);
    delete p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_create(
        ze_event_pool_handle_t pool, const ze_event_desc_t *desc, ze_event_handle_t *event) {
    lock_t lock(objects_mutex());
    auto *p = live<event_pool_t>(pool);
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !event) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->index >= p->used.size() || p->used[desc->index])
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    auto *e = new event_t;
    e->pool = p;
    e->index = desc->index;
    p->used[desc->index] = true;
    register_object(e, typeid(event_t));
    *event = handle_of<ze_event_handle_t>(e);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_destroy(ze_event_handle_t event) {
    lock_t lock(objects_mutex());
    auto *e = live<event_t>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    unregister_object(e);
    e->pool->used[e->index] = false;
    clear_signal(e);
    delete e;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_host_signal(ze_event_handle_t event) {
    lock_t lock(objects_mutex());
    auto *e = live<event_t>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    e->host_signalled = true;
    if (e->waiter) e->waiter->complete(CL_COMPLETE);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_host_reset(ze_event_handle_t event) {
    lock_t lock(objects_mutex());
    auto *e = live<event_t>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    clear_signal(e);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_query_status(ze_event_handle_t event) {
    lock_t lock(objects_mutex());
    auto *e = live<event_t>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return signal_status(e);
}

ze_result_t ZE_APICALL event_host_synchronize(ze_event_handle_t event, uint64_t timeout_ns) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    for (;;) {
        lock_t lock(objects_mutex());
        auto *e = live<event_t>(event);
        if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        const ze_result_t r = signal_status(e);
        if (r != ZE_RESULT_NOT_READY || timeout_ns == 0) return r;
        cl_event signaler = e->signaler;
        if (signaler && timeout_ns == UINT64_MAX) {
            // Wait for the command itself, unlocked (others may signal or query meanwhile).
            clRetainEvent(signaler);
            lock.unlock();
            clWaitForEvents(1, &signaler);
            clReleaseEvent(signaler);
            continue;
        }
        lock.unlock();
        // Nothing to wait on yet (a host signal will come), or a finite timeout: poll.
        if (timeout_ns != UINT64_MAX
                && clock::now() - start >= std::chrono::nanoseconds(timeout_ns))
            return ZE_RESULT_NOT_READY;
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
}

ze_result_t ZE_APICALL event_query_kernel_timestamp(
        ze_event_handle_t event, ze_kernel_timestamp_result_t *result) {
    lock_t lock(objects_mutex());
    auto *e = live<event_t>(event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!result) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!(e->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    const ze_result_t r = signal_status(e);
    if (r != ZE_RESULT_SUCCESS) return r;
    cl_ulong begin = 0, end = 0;
    if (e->signaler) {
        if (clGetEventProfilingInfo(
                    e->signaler, CL_PROFILING_COMMAND_START, sizeof(begin), &begin, nullptr)
                        != CL_SUCCESS
                || clGetEventProfilingInfo(
                           e->signaler, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr)
                           != CL_SUCCESS)
            return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    }
    // Signalled from the host: no command, an empty interval.
    result->global = {begin, end};
    result->context = {begin, end};
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
