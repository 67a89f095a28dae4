#include "io/stop_signals.hpp"

#include <signal.h>

#include <csignal>

namespace catena::io {

namespace {

std::atomic<bool> requested{false};
std::atomic<int> signal_number{0};

extern "C" void on_stop_signal(int sig) {
  signal_number.store(sig);
  requested.store(true);
}

}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  // `catena` blocks them across its exec of the solver (io/main.cpp): one that came meanwhile is
  // delivered now, to the handler.
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &stops, nullptr);
}

const std::atomic<bool>& stop_requested() { return requested; }

int stop_signal() { return signal_number.load(); }

int agreed_stop_signal(MPI_Comm comm) {
  int sig = stop_signal();
  MPI_Allreduce(MPI_IN_PLACE, &sig, 1, MPI_INT, MPI_MAX, comm);
  return sig != 0 ? sig : SIGTERM;
}

const char* signal_name(int sig) { return sig == SIGINT ? "SIGINT" : "SIGTERM"; }

}  // namespace catena::io
