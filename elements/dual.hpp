#pragma once
/// Forward-mode dual numbers with a compile-time number of derivatives, nestable for second
/// derivatives (Dual<N, Dual<N>>). They replace Eigen's AutoDiffScalar in the element kernels:
/// Eigen's version builds its derivative vectors through expression templates that GCC does not
/// inline when nested, and the beam's Jacobian spent most of its time in those calls (perf,
/// bench/long_beam_bench). Here every operation is a plain loop over a fixed array.
///
/// Interface kept from AutoDiffScalar where the rotation templates (fem/rotation.hpp) rely on it:
/// `value()`, `derivatives()` (an Eigen view of the derivative array), `Scalar` (the value type),
/// construction from (value, derivative vector), and sin/cos/sqrt found by argument-dependent
/// lookup. Eigen matrices of duals work through the NumTraits and ScalarBinaryOpTraits below.
#include <Eigen/Core>

#include <array>
#include <cmath>
#include <type_traits>

namespace catena::elements::ad {

template <int N, class S = double>
class Dual {
 public:
  using Scalar = S;
  using Derivatives = Eigen::Matrix<S, N, 1>;

  Dual() = default;
  Dual(double x) : v_(x) {}  // NOLINT: implicit, like a plain number
  template <class T = S, std::enable_if_t<!std::is_same_v<T, double>, int> = 0>
  Dual(const S& x) : v_(x) {}  // NOLINT: implicit from the value type of a nested dual
  template <class Derived>
  Dual(const S& x, const Eigen::MatrixBase<Derived>& der) : v_(x) {
    for (int i = 0; i < N; ++i) d_[i] = der(i);
  }

  [[nodiscard]] const S& value() const { return v_; }
  S& value() { return v_; }
  [[nodiscard]] Eigen::Map<Derivatives> derivatives() { return Eigen::Map<Derivatives>(d_.data()); }
  [[nodiscard]] Eigen::Map<const Derivatives> derivatives() const {
    return Eigen::Map<const Derivatives>(d_.data());
  }
  [[nodiscard]] const S& d(int i) const { return d_[i]; }
  S& d(int i) { return d_[i]; }

  Dual& operator+=(const Dual& b) {
    v_ += b.v_;
    for (int i = 0; i < N; ++i) d_[i] += b.d_[i];
    return *this;
  }
  Dual& operator-=(const Dual& b) {
    v_ -= b.v_;
    for (int i = 0; i < N; ++i) d_[i] -= b.d_[i];
    return *this;
  }
  Dual& operator*=(const Dual& b) {
    for (int i = 0; i < N; ++i) d_[i] = d_[i] * b.v_ + v_ * b.d_[i];
    v_ *= b.v_;
    return *this;
  }
  Dual& operator/=(const Dual& b) {
    const S inv = S(1.0) / b.v_;
    v_ *= inv;
    for (int i = 0; i < N; ++i) d_[i] = (d_[i] - v_ * b.d_[i]) * inv;
    return *this;
  }
  /// Scaling by a constant (a plain number or, for nested duals, the value type).
  template <class C>
  Dual& scale(const C& c) {
    v_ *= c;
    for (int i = 0; i < N; ++i) d_[i] *= c;
    return *this;
  }

 private:
  S v_{};
  std::array<S, N> d_{};
};

/// A dual with value f(x) and derivative f'(x) · dx (the chain rule for unary functions).
template <int N, class S>
Dual<N, S> chain(const Dual<N, S>& x, const S& f, const S& df) {
  Dual<N, S> r(f);
  for (int i = 0; i < N; ++i) r.d(i) = df * x.d(i);
  return r;
}

// ---- arithmetic: dual with dual, with double, and (nested duals) with the value type --------
template <int N, class S>
Dual<N, S> operator-(const Dual<N, S>& a) {
  Dual<N, S> r;
  return r -= a;
}
template <int N, class S>
Dual<N, S> operator+(Dual<N, S> a, const Dual<N, S>& b) {
  return a += b;
}
template <int N, class S>
Dual<N, S> operator-(Dual<N, S> a, const Dual<N, S>& b) {
  return a -= b;
}
template <int N, class S>
Dual<N, S> operator*(Dual<N, S> a, const Dual<N, S>& b) {
  return a *= b;
}
template <int N, class S>
Dual<N, S> operator/(Dual<N, S> a, const Dual<N, S>& b) {
  return a /= b;
}

template <class C, class S>
concept DualConstant = std::is_arithmetic_v<C> || (std::is_same_v<C, S> && !std::is_same_v<S, double>);

template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator+(Dual<N, S> a, const C& c) {
  a.value() += c;
  return a;
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator+(const C& c, Dual<N, S> a) {
  a.value() += c;
  return a;
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator-(Dual<N, S> a, const C& c) {
  a.value() -= c;
  return a;
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator-(const C& c, const Dual<N, S>& a) {
  Dual<N, S> r = -a;
  r.value() += c;
  return r;
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator*(Dual<N, S> a, const C& c) {
  return a.scale(c);
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator*(const C& c, Dual<N, S> a) {
  return a.scale(c);
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator/(Dual<N, S> a, const C& c) {
  return a.scale(S(1.0) / c);
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S> operator/(const C& c, const Dual<N, S>& a) {
  const S inv = S(1.0) / a.value();
  return chain(a, S(c * inv), S(-c * inv * inv));
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S>& operator+=(Dual<N, S>& a, const C& c) {
  a.value() += c;
  return a;
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S>& operator-=(Dual<N, S>& a, const C& c) {
  a.value() -= c;
  return a;
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S>& operator*=(Dual<N, S>& a, const C& c) {
  return a.scale(c);
}
template <int N, class S, class C>
  requires DualConstant<C, S>
Dual<N, S>& operator/=(Dual<N, S>& a, const C& c) {
  return a.scale(S(1.0) / c);
}

// ---- the functions the element kernels use (found by argument-dependent lookup) ------------
template <int N, class S>
Dual<N, S> sin(const Dual<N, S>& x) {
  using std::cos;
  using std::sin;
  return chain(x, S(sin(x.value())), S(cos(x.value())));
}
template <int N, class S>
Dual<N, S> cos(const Dual<N, S>& x) {
  using std::cos;
  using std::sin;
  return chain(x, S(cos(x.value())), S(-sin(x.value())));
}
template <int N, class S>
Dual<N, S> sqrt(const Dual<N, S>& x) {
  using std::sqrt;
  const S r = sqrt(x.value());
  return chain(x, r, S(0.5 / r));
}
/// The plain number inside a (possibly nested) dual.
inline double plain_value(double x) { return x; }
template <int N, class S>
double plain_value(const Dual<N, S>& x) {
  return plain_value(x.value());
}
template <int N, class S>
Dual<N, S> abs(const Dual<N, S>& x) {
  return plain_value(x) < 0.0 ? -x : x;
}

}  // namespace catena::elements::ad

namespace catena::elements::ad {

/// Eigen's traits of an automatic-differentiation scalar `Real` over doubles (Dual here, Reverse in
/// elements/reverse.hpp), with the costs of its operations in plain numbers' units.
template <class Real, int read_cost, int add_cost, int mul_cost>
struct ScalarTraits : Eigen::GenericNumTraits<Real> {
  using NonInteger = Real;
  using Nested = Real;
  using Literal = Real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = read_cost,
    AddCost = add_cost,
    MulCost = mul_cost,
  };
  static Real epsilon() { return Real(Eigen::NumTraits<double>::epsilon()); }
  static Real dummy_precision() { return Real(Eigen::NumTraits<double>::dummy_precision()); }
  static Real highest() { return Real(Eigen::NumTraits<double>::highest()); }
  static Real lowest() { return Real(Eigen::NumTraits<double>::lowest()); }
  static int digits10() { return Eigen::NumTraits<double>::digits10(); }
};

}  // namespace catena::elements::ad

namespace Eigen {

template <int N, class S>
struct NumTraits<catena::elements::ad::Dual<N, S>>
    : catena::elements::ad::ScalarTraits<catena::elements::ad::Dual<N, S>, (N + 1) * NumTraits<S>::ReadCost,
                                         (N + 1) * NumTraits<S>::AddCost, (2 * N + 1) * NumTraits<S>::MulCost> {
  using Real = catena::elements::ad::Dual<N, S>;
};

template <int N, class S, class BinOp>
struct ScalarBinaryOpTraits<catena::elements::ad::Dual<N, S>, double, BinOp> {
  using ReturnType = catena::elements::ad::Dual<N, S>;
};
template <int N, class S, class BinOp>
struct ScalarBinaryOpTraits<double, catena::elements::ad::Dual<N, S>, BinOp> {
  using ReturnType = catena::elements::ad::Dual<N, S>;
};

}  // namespace Eigen
