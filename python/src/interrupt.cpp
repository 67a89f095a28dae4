#include "interrupt.hpp"

#include <pybind11/pybind11.h>

namespace catena::python {

namespace py = pybind11;

namespace {

std::atomic<std::atomic<bool>*> stop_flag{nullptr};
volatile std::sig_atomic_t received = 0;

extern "C" void on_interrupt(int) {
  received = 1;
  if (std::atomic<bool>* stop = stop_flag.load()) stop->store(true);
}

bool python_handles_interrupts_by_default() {
  const py::module_ threading = py::module_::import("threading");
  if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return false;
  const py::module_ signal = py::module_::import("signal");
  return signal.attr("getsignal")(signal.attr("SIGINT")).is(signal.attr("default_int_handler"));
}

}  // namespace

StopOnInterrupt::StopOnInterrupt(std::atomic<bool>& stop) {
  if (!python_handles_interrupts_by_default()) return;
  received = 0;
  stop_flag.store(&stop);
  struct sigaction ours {};
  ours.sa_handler = on_interrupt;
  sigemptyset(&ours.sa_mask);
  installed_ = sigaction(SIGINT, &ours, &python_) == 0;
}

StopOnInterrupt::~StopOnInterrupt() {
  if (!installed_) return;
  sigaction(SIGINT, &python_, nullptr);
  stop_flag.store(nullptr);
}

void StopOnInterrupt::hand_back() {
  if (!installed_) return;
  sigaction(SIGINT, &python_, nullptr);
  stop_flag.store(nullptr);
  installed_ = false;
  if (received == 0) return;
  PyErr_SetInterrupt();
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

}  // namespace catena::python
