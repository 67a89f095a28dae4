#pragma once
/// Reverse-mode automatic differentiation on a tape, for the one place where forward mode is
/// wasteful: the gradient of a scalar of many inputs. Its values may be forward dual numbers
/// (`Reverse<Dual<N>>`, forward over reverse): one reverse sweep then gives the gradient of the
/// scalar together with its derivatives along N directions, i.e. N columns of its Hessian. The
/// beam's Jacobian needs exactly that, ∇²(σᵀφ) along six directions (elements/beam.cpp), where
/// nested dual numbers (Dual<6, Dual<6>>) carried the second derivatives of all six outputs of φ
/// through every operation.
///
/// Usage: `ReverseScope<T> scope;` clears the thread's tape for T; `scope.variable(x)` records
/// the inputs; the function runs on Reverse<T> (the rotation templates of fem/rotation.hpp work
/// unchanged: arithmetic, sqrt, sin, cos and atan2 are recorded); `scope.gradient(outputs,
/// weights, inputs)` sweeps back from Σ wᵢ outputᵢ. Constants (plain numbers, and results that
/// depend on no input) stay off the tape.
#include "elements/dual.hpp"
#include "fem/rotation.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace catena::elements::ad {

/// The operations recorded since the scope opened: each result's index is its position, and each
/// entry keeps the indices of its (at most two) arguments and the partial derivatives by them:
/// plain numbers for the linear operations (sums, scaling by constants), whose sweep then costs
/// a scaling instead of a product of duals, values of T (kept apart) for the others.
template <class T>
class Tape {
 public:
  struct Entry {
    int a, b;        ///< argument indices; −1: none (an input, or a unary operation)
    int partials;    ///< index of (∂/∂a, ∂/∂b) in `partials`; −1: linear, ca and cb
    double ca, cb;
  };

  static Tape& current() {
    thread_local Tape tape;
    return tape;
  }
  void clear() {
    size_ = 0;
    partials_.clear();
  }
  bool open = false;  ///< a ReverseScope is recording
  [[nodiscard]] int size() const { return size_; }
  [[nodiscard]] const Entry& entry(int k) const { return entries_[static_cast<std::size_t>(k)]; }
  [[nodiscard]] const std::pair<T, T>& partials(int k) const { return partials_[static_cast<std::size_t>(k)]; }

  int record(int a, const T& da, int b, const T& db) {
    partials_.emplace_back(da, db);
    return push(Entry{a, b, static_cast<int>(partials_.size()) - 1, 0.0, 0.0});
  }
  int record_linear(int a, double ca, int b, double cb) { return push(Entry{a, b, -1, ca, cb}); }
  /// One adjoint per entry, zero (kept allocated between scopes).
  T* zeroed_adjoints() {
    adjoints_.assign(static_cast<std::size_t>(size_), T{});
    return adjoints_.data();
  }

 private:
  int push(const Entry& e) {
    if (static_cast<std::size_t>(size_) == entries_.size())
      entries_.resize(std::max<std::size_t>(1024, 2 * entries_.size()));
    entries_[static_cast<std::size_t>(size_)] = e;
    return size_++;
  }
  std::vector<Entry> entries_;  ///< the first size_ are recorded (kept allocated between scopes)
  int size_ = 0;
  std::vector<std::pair<T, T>> partials_;
  std::vector<T> adjoints_;
};

template <class T>
class Reverse {
 public:
  using Scalar = T;

  Reverse() = default;
  Reverse(double c) : v_(c) {}  // NOLINT: implicit, like a plain number (a constant)
  template <class U = T, std::enable_if_t<!std::is_same_v<U, double>, int> = 0>
  Reverse(const T& c) : v_(c) {}  // NOLINT: a constant of the value type
  Reverse(const T& v, int index) : v_(v), i_(index) {}

  [[nodiscard]] const T& value() const { return v_; }
  [[nodiscard]] int index() const { return i_; }

  Reverse& operator+=(const Reverse& b) { return *this = *this + b; }
  Reverse& operator-=(const Reverse& b) { return *this = *this - b; }
  Reverse& operator*=(const Reverse& b) { return *this = *this * b; }
  Reverse& operator/=(const Reverse& b) { return *this = *this / b; }

 private:
  T v_{};
  int i_ = -1;  ///< position on the tape; −1: a constant
};

/// The result of an operation with value v and partials da, db by its arguments a, b.
template <class T>
Reverse<T> recorded(const T& v, const Reverse<T>& a, const T& da, const Reverse<T>& b, const T& db) {
  if (a.index() < 0 && b.index() < 0) return Reverse<T>(v, -1);
  return Reverse<T>(v, Tape<T>::current().record(a.index(), da, b.index(), db));
}
template <class T>
Reverse<T> recorded(const T& v, const Reverse<T>& a, const T& da) {
  if (a.index() < 0) return Reverse<T>(v, -1);
  return Reverse<T>(v, Tape<T>::current().record(a.index(), da, -1, T{}));
}

/// The result of a linear operation: partials ca, cb (plain numbers).
template <class T>
Reverse<T> recorded_linear(const T& v, const Reverse<T>& a, double ca, const Reverse<T>& b, double cb) {
  if (a.index() < 0 && b.index() < 0) return Reverse<T>(v, -1);
  return Reverse<T>(v, Tape<T>::current().record_linear(a.index(), ca, b.index(), cb));
}

template <class T>
Reverse<T> operator-(const Reverse<T>& a) {
  return recorded_linear(T(-a.value()), a, -1.0, Reverse<T>(), 0.0);
}
template <class T>
Reverse<T> operator+(const Reverse<T>& a, const Reverse<T>& b) {
  return recorded_linear(T(a.value() + b.value()), a, 1.0, b, 1.0);
}
template <class T>
Reverse<T> operator-(const Reverse<T>& a, const Reverse<T>& b) {
  return recorded_linear(T(a.value() - b.value()), a, 1.0, b, -1.0);
}
template <class T>
Reverse<T> operator*(const Reverse<T>& a, const Reverse<T>& b) {
  return recorded(T(a.value() * b.value()), a, b.value(), b, a.value());
}
template <class T>
Reverse<T> operator/(const Reverse<T>& a, const Reverse<T>& b) {
  const T inv = T(1.0) / b.value();
  const T q = a.value() * inv;
  return recorded(q, a, inv, b, T(-q * inv));
}
// With plain numbers: one argument on the tape.
template <class T>
Reverse<T> operator+(const Reverse<T>& a, double c) {
  return recorded_linear(T(a.value() + c), a, 1.0, Reverse<T>(), 0.0);
}
template <class T>
Reverse<T> operator+(double c, const Reverse<T>& a) {
  return a + c;
}
template <class T>
Reverse<T> operator-(const Reverse<T>& a, double c) {
  return recorded_linear(T(a.value() - c), a, 1.0, Reverse<T>(), 0.0);
}
template <class T>
Reverse<T> operator-(double c, const Reverse<T>& a) {
  return recorded_linear(T(c - a.value()), a, -1.0, Reverse<T>(), 0.0);
}
template <class T>
Reverse<T> operator*(const Reverse<T>& a, double c) {
  return recorded_linear(T(a.value() * c), a, c, Reverse<T>(), 0.0);
}
template <class T>
Reverse<T> operator*(double c, const Reverse<T>& a) {
  return a * c;
}
template <class T>
Reverse<T> operator/(const Reverse<T>& a, double c) {
  return a * (1.0 / c);
}

template <class T>
Reverse<T> sqrt(const Reverse<T>& x) {
  using std::sqrt;
  const T r = sqrt(x.value());
  return recorded(r, x, T(0.5 / r));
}
template <class T>
Reverse<T> sin(const Reverse<T>& x) {
  using std::cos;
  using std::sin;
  return recorded(T(sin(x.value())), x, T(cos(x.value())));
}
template <class T>
Reverse<T> cos(const Reverse<T>& x) {
  using std::cos;
  using std::sin;
  return recorded(T(cos(x.value())), x, T(-sin(x.value())));
}
/// atan2 with the derivatives of fem::rotation_detail::atan2_fixed (which calls this one).
template <class T>
Reverse<T> atan2(const Reverse<T>& y, const Reverse<T>& x) {
  const T inv = T(1.0) / (x.value() * x.value() + y.value() * y.value());
  return recorded(fem::rotation_detail::atan2_fixed(y.value(), x.value()), y, T(x.value() * inv), x,
                  T(-y.value() * inv));
}

/// Opens the thread's tape for Reverse<T> (cleared) and closes it again; one scope at a time.
template <class T>
class ReverseScope {
 public:
  /// Throws std::logic_error when a scope of the same T is open on this thread: a second one would
  /// clear the first one's tape under it.
  ReverseScope() : tape_(Tape<T>::current()) {
    if (tape_.open) throw std::logic_error("a reverse-mode tape is already recording on this thread");
    tape_.open = true;
    tape_.clear();
  }
  ~ReverseScope() {
    tape_.clear();
    tape_.open = false;
  }
  ReverseScope(const ReverseScope&) = delete;
  ReverseScope& operator=(const ReverseScope&) = delete;

  /// An input with value x.
  Reverse<T> variable(const T& x) { return Reverse<T>(x, tape_.record_linear(-1, 0.0, -1, 0.0)); }

  /// ∂(Σ wᵢ yᵢ)/∂xⱼ for the outputs y with weights w and the inputs x (recorded by `variable`).
  template <int M, int N, class W>
  Eigen::Matrix<T, N, 1> gradient(const Eigen::Matrix<Reverse<T>, M, 1>& y, const W& w,
                                  const Eigen::Matrix<Reverse<T>, N, 1>& x) {
    T* adj = tape_.zeroed_adjoints();
    for (int i = 0; i < M; ++i)
      if (y[i].index() >= 0) adj[y[i].index()] += T(w[i]);
    for (int k = tape_.size() - 1; k >= 0; --k) {
      const auto& e = tape_.entry(k);
      const T& a = adj[k];
      if (e.partials < 0) {
        if (e.a >= 0) adj[e.a] += a * e.ca;
        if (e.b >= 0) adj[e.b] += a * e.cb;
      } else {
        const auto& [da, db] = tape_.partials(e.partials);
        if (e.a >= 0) adj[e.a] += a * da;
        if (e.b >= 0) adj[e.b] += a * db;
      }
    }
    Eigen::Matrix<T, N, 1> g;
    for (int j = 0; j < N; ++j) g[j] = x[j].index() >= 0 ? adj[x[j].index()] : T{};
    return g;
  }

 private:
  Tape<T>& tape_;
};

}  // namespace catena::elements::ad

namespace Eigen {

template <class T>
struct NumTraits<catena::elements::ad::Reverse<T>>
    : catena::elements::ad::ScalarTraits<catena::elements::ad::Reverse<T>, 2 * NumTraits<T>::ReadCost,
                                         3 * NumTraits<T>::AddCost, 3 * NumTraits<T>::MulCost> {
  using Real = catena::elements::ad::Reverse<T>;
};

template <class T, class BinOp>
struct ScalarBinaryOpTraits<catena::elements::ad::Reverse<T>, double, BinOp> {
  using ReturnType = catena::elements::ad::Reverse<T>;
};
template <class T, class BinOp>
struct ScalarBinaryOpTraits<double, catena::elements::ad::Reverse<T>, BinOp> {
  using ReturnType = catena::elements::ad::Reverse<T>;
};

}  // namespace Eigen
