#pragma once
/// How many processors the rest of the machine leaves this process now: the threads that stamp
/// the elements (assembly/tableau.hpp) follow it, so that a run sharing the machine never waits
/// on a thread the scheduler has put behind another program's work (with a CPU-bound process on
/// the second of two processors, two threads made chain15 20–37 times slower than one).
///
/// Read from the kernel: the tasks runnable machine-wide (the fourth field of /proc/loadavg,
/// "runnable/total"), less this process's own runnable threads (/proc/self/task/*/stat, state R),
/// against the processors online. An instant's count, so callers read it again from time to time.
#include <optional>
#include <string_view>

namespace catena::assembly {

/// Processors online less the runnable tasks of other processes, at least 0; nullopt where /proc
/// cannot be read (the caller keeps what it has).
[[nodiscard]] std::optional<int> free_processors();

/// The same from the texts read: `loadavg` as /proc/loadavg reads ("0.52 0.58 0.59 3/467 12345"),
/// `own_runnable` this process's runnable threads, `online` the processors online; nullopt when
/// `loadavg` is not of that form.
[[nodiscard]] std::optional<int> free_processors(std::string_view loadavg, int own_runnable, int online);

}  // namespace catena::assembly
