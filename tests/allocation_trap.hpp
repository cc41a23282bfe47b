// Test binaries that check code never allocates: the global operator new/delete (every form)
// and, outside sanitizer builds (which own malloc), malloc, calloc, realloc, aligned_alloc,
// posix_memalign and memalign are replaced by ones that count every call made while a Trap is
// armed. Include it in exactly one source file of a test binary (it defines those functions).
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long> g_allocations{0};
std::atomic<bool> g_trap{false};

void note() noexcept {
  if (g_trap.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
}

void* aligned(std::size_t n, std::size_t al) noexcept {
  const std::size_t size = (n + al - 1) / al * al;
  return std::aligned_alloc(al, size == 0 ? al : size);
}
}  // namespace

#if !defined(__SANITIZE_ADDRESS__)
#define FRICTIONLAB_TRAP_MALLOC 1
extern "C" {
// glibc's own allocator entry points, which the replacements forward to (reserved names on
// purpose: they are glibc's exported symbols).
void* __libc_malloc(std::size_t) noexcept;                 // NOLINT(bugprone-reserved-identifier)
void* __libc_calloc(std::size_t, std::size_t) noexcept;    // NOLINT(bugprone-reserved-identifier)
void* __libc_realloc(void*, std::size_t) noexcept;         // NOLINT(bugprone-reserved-identifier)
void* __libc_memalign(std::size_t, std::size_t) noexcept;  // NOLINT(bugprone-reserved-identifier)
void __libc_free(void*) noexcept;                          // NOLINT(bugprone-reserved-identifier)

void* malloc(std::size_t n) noexcept {
  note();
  return __libc_malloc(n);
}
void* calloc(std::size_t a, std::size_t b) noexcept {
  note();
  return __libc_calloc(a, b);
}
void* realloc(void* p, std::size_t n) noexcept {
  note();
  return __libc_realloc(p, n);
}
void* memalign(std::size_t al, std::size_t n) noexcept {
  note();
  return __libc_memalign(al, n);
}
void* aligned_alloc(std::size_t al, std::size_t n) noexcept {
  note();
  return __libc_memalign(al, n);
}
int posix_memalign(void** out, std::size_t al, std::size_t n) noexcept {
  note();
  *out = __libc_memalign(al, n);
  return *out ? 0 : 12;  // ENOMEM
}
void free(void* p) noexcept { __libc_free(p); }
}
#endif

void* operator new(std::size_t n) {
  note();
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  note();
  return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return ::operator new(n, t);
}
void* operator new(std::size_t n, std::align_val_t al) {
  note();
  if (void* p = aligned(n, static_cast<std::size_t>(al))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) { return ::operator new(n, al); }
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  note();
  return aligned(n, static_cast<std::size_t>(al));
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t& t) noexcept {
  return ::operator new(n, al, t);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace frictionlab::testing {

/// Arms the allocation trap for its lifetime; count() is the number of allocations seen meanwhile.
class Trap {
 public:
  Trap() : start_(g_allocations.load()) { g_trap = true; }
  ~Trap() { g_trap = false; }
  long count() const { return g_allocations.load() - start_; }

 private:
  long start_;
};

}  // namespace frictionlab::testing
