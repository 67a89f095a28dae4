#include "runtime.hpp"

#include "errors.hpp"

#include "assembly/petsc_handle.hpp"
#include "assembly/petsc_session.hpp"
#include "io/commands.hpp"

#include <pybind11/pybind11.h>

#include <memory>
#include <set>

namespace catena::python {

namespace py = pybind11;

namespace {

struct Runtime {
  /// PETSc keeps the argument vector it was started with: it lives as long as the session.
  std::vector<std::string> arguments;
  std::vector<char*> argv;
  std::unique_ptr<assembly::PetscSession> session;
  bool finished = false;
  bool inherited = false;  ///< a child forked from a process where PETSc ran
  std::set<PetscUser*> users;
};

Runtime& runtime() {
  static Runtime r;
  return r;
}

}  // namespace

void start(const std::vector<std::string>& options) {
  Runtime& r = runtime();
  if (r.inherited)
    throw Error(1,
                "PETSc was started before this process was forked from its parent, and MPI cannot run in both: "
                "start simulations in the worker processes only, or use the 'spawn' start method of multiprocessing");
  if (r.finished) throw Error(1, "PETSc has finished (the interpreter is exiting): no new simulation");
  if (r.session) {
    if (!options.empty())
      throw Error(1, "PETSc runs already: call catena.start(petsc_options=...) before the first simulation");
    return;
  }
  r.arguments = {"python3"};
  r.arguments.insert(r.arguments.end(), options.begin(), options.end());
  for (std::string& a : r.arguments) r.argv.push_back(a.data());
  int argc = static_cast<int>(r.argv.size());
  r.argv.push_back(nullptr);
  char** argv = r.argv.data();
  try {
    r.session = std::make_unique<assembly::PetscSession>(argc, argv);
  } catch (const assembly::PetscFailure& e) {
    // PETSc has printed what it refused (an options file it cannot open, a malformed option).
    throw Error(io::exit_bad_input, std::string("PETSc did not start with the options given (") + e.what() + ")");
  }
  // multiprocessing's workers end by os._exit, past the interpreter's exit handlers, but after its
  // own finalizers: there PETSc finishes too (else a worker leaves its Open MPI session folder).
  py::module_::import("multiprocessing.util")
      .attr("Finalize")(py::none(), py::cpp_function(&finish), py::arg("exitpriority") = 0);
}

void ensure_started() { start({}); }

bool started() { return runtime().session != nullptr; }

void add_user(PetscUser& user) { runtime().users.insert(&user); }

void remove_user(PetscUser& user) { runtime().users.erase(&user); }

void forget_after_fork() noexcept {
  Runtime& r = runtime();
  if (!r.session) return;
  // The parent's session and simulations: never finished or destroyed here (MPI's state is the
  // parent's), their memory left to the process's end.
  static_cast<void>(r.session.release());
  for (PetscUser* user : r.users) user->abandon();
  r.users.clear();
  r.inherited = true;
}

void finish() noexcept {
  Runtime& r = runtime();
  for (PetscUser* user : r.users) user->release();
  r.users.clear();
  r.session.reset();
  r.finished = true;
}

}  // namespace catena::python
