#pragma once
/// Small RAII owners for PETSc objects and an error check that turns PETSc error codes into
/// exceptions (PETSc headers stay inside assembly/ and solvers/).
#include <petscis.h>
#include <petscmat.h>
#include <petscvec.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace catena::assembly {

class PetscFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check(PetscErrorCode code, const char* call) {
  if (code != 0) {
    const char* text = nullptr;
    PetscErrorMessage(code, &text, nullptr);
    throw PetscFailure(std::string(call) + " failed: " + (text ? text : "unknown PETSc error"));
  }
}

/// Runs a PETSc call whose errors are answers, not faults (a factorization of a singular
/// matrix): returns its error code instead of letting PETSc print a traceback.
template <class Call>
PetscErrorCode quietly(Call call) {
  check(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr), "PetscPushErrorHandler");
  const PetscErrorCode code = call();
  check(PetscPopErrorHandler(), "PetscPopErrorHandler");
  return code;
}

/// Owns one PETSc object; `Destroy` is the matching XxxDestroy function.
template <class T, PetscErrorCode (*Destroy)(T*)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T object) : object_(object) {}
  ~Handle() { reset(); }
  Handle(Handle&& o) noexcept : object_(std::exchange(o.object_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      object_ = std::exchange(o.object_, nullptr);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  void reset() {
    if (object_) Destroy(&object_);
    object_ = nullptr;
  }
  [[nodiscard]] T get() const { return object_; }
  [[nodiscard]] T* out() {  ///< for XxxCreate(&h.out()): releases any held object first
    reset();
    return &object_;
  }
  operator T() const { return object_; }  // NOLINT: handles pass straight into PETSc calls

 private:
  T object_ = nullptr;
};

using VecHandle = Handle<Vec, VecDestroy>;
using MatHandle = Handle<Mat, MatDestroy>;
using ISHandle = Handle<IS, ISDestroy>;
using ScatterHandle = Handle<VecScatter, VecScatterDestroy>;

}  // namespace catena::assembly
