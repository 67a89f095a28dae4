#include "fem/rotation.hpp"

#include "elements/dual.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

namespace catena::fem {
namespace {

constexpr double pi = std::numbers::pi;

using Vec3L = Eigen::Matrix<long double, 3, 1>;
using Mat3L = Eigen::Matrix<long double, 3, 3>;
/// First derivatives with respect to the three components of φ: the elements' dual numbers.
using Ad = elements::ad::Dual<3>;
/// Second derivatives: an Ad value whose derivative vector holds Ad entries.
using Ad2 = elements::ad::Dual<3, Ad>;

Vec3 random_unit(std::mt19937& gen) {
  std::normal_distribution<double> normal;
  Vec3 v(normal(gen), normal(gen), normal(gen));
  return v.normalized();
}

/// Random vector with norm uniform in [lo, hi).
Vec3 random_vector(std::mt19937& gen, double lo, double hi) {
  std::uniform_real_distribution<double> norm(lo, hi);
  return norm(gen) * random_unit(gen);
}

Mat3L skew_l(const Vec3L& v) {
  Mat3L m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

/// Long-double closed forms, written without the cancellation of 1 − cos θ (long-double series for
/// the two coefficients that cancel at tiny angles). References for the double-precision series
/// branches.
struct Reference {
  Mat3L exp, tangent, tangent_inverse;
  explicit Reference(const Vec3& phi_d) {
    const Vec3L phi = phi_d.cast<long double>();
    const long double theta = std::sqrt(phi.squaredNorm());
    const long double x = theta * theta;
    const long double h = std::sin(theta / 2);
    const long double a = std::sin(theta) / theta;
    const long double b = 2 * h * h / x;
    // Below θ = 1e-2 the closed forms of c and d cancel too many digits even in long double
    // (θ − sin θ loses ~1e-19 θ): their Taylor series to six terms are exact there to 1e-30.
    const bool tiny = theta < 1e-2L;
    const long double c =
        tiny ? 1.0L / 6 - x / 120 + x * x / 5040 - x * x * x / 362880 + x * x * x * x / 39916800 -
                   x * x * x * x * x / 6227020800.0L
             : (theta - std::sin(theta)) / (theta * x);
    const long double d =
        tiny ? 1.0L / 12 + x / 720 + x * x / 30240 + x * x * x / 1209600 + x * x * x * x / 47900160 +
                   691.0L * x * x * x * x * x / 1307674368000.0L
             : (1 - (theta / 2) * std::cos(theta / 2) / h) / x;
    const Mat3L p = skew_l(phi);
    const Mat3L i = Mat3L::Identity();
    exp = i + a * p + b * p * p;
    tangent = i + b * p + c * p * p;
    tangent_inverse = i - p / 2 + d * p * p;
  }
};

/// Compares with a long-double reference near the identity: the off-diagonal entries, of order θ,
/// to `rel` relative to θ, the diagonal entries (1 + O(θ²), rounded to double) to two ulps of 1.
void expect_near_reference(const Mat3& m, const Mat3L& ref, double theta, double rel) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double err = static_cast<double>(std::abs(static_cast<long double>(m(i, j)) - ref(i, j)));
      if (i == j) {
        EXPECT_LE(err, 4.5e-16) << "theta " << theta << " entry " << i << i;
      } else {
        EXPECT_LE(err, rel * theta) << "theta " << theta << " entry " << i << j;
      }
    }
  }
}

/// ‖a − b‖∞ (largest entry).
template <class A, class B>
double max_diff(const A& a, const B& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

// ---------------------------------------------------------------------------------------------
TEST(RotationSkew, CrossProductAndAxialVector) {
  std::mt19937 gen(1);
  for (int k = 0; k < 20; ++k) {
    const Vec3 a = random_vector(gen, 0.1, 5.0);
    const Vec3 b = random_vector(gen, 0.1, 5.0);
    EXPECT_LE(max_diff(skew(a) * b, a.cross(b)), 1e-14);
    EXPECT_EQ(axial(skew(a)), a);
    // The symmetric part of a matrix does not change its axial vector.
    const Mat3 sym = b * b.transpose() + Mat3::Identity();
    EXPECT_LE(max_diff(axial<double>(skew(a) + sym), a), 1e-14);
  }
}

TEST(RotationExpMap, MatchesAngleAxisAndIsARotation) {
  std::mt19937 gen(2);
  for (int k = 0; k < 200; ++k) {
    const Vec3 phi = random_vector(gen, 0.0, 3.0 * pi);
    const Mat3 r = exp_map(phi);
    const Mat3 expected = Eigen::AngleAxisd(phi.norm(), phi.normalized()).toRotationMatrix();
    EXPECT_LE(max_diff(r, expected), 1e-14) << phi.transpose();
    EXPECT_LE(max_diff(r.transpose() * r, Mat3::Identity()), 1e-14);
    EXPECT_NEAR(r.determinant(), 1.0, 1e-14);
  }
  EXPECT_EQ(exp_map(Vec3::Zero().eval()), Mat3::Identity());
}

TEST(RotationExpMap, SmallAnglesMatchLongDoubleClosedForm) {
  // Covers the series branch (θ < 0.1), its boundary and the closed form just above it.
  std::mt19937 gen(3);
  for (const double theta : {0.5, 0.1000001, 0.0999999, 0.05, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10,
                             1e-12}) {
    for (int k = 0; k < 10; ++k) {
      const Vec3 phi = theta * random_unit(gen);
      expect_near_reference(exp_map(phi), Reference(phi).exp, theta, 1e-15);
    }
  }
}

// ---------------------------------------------------------------------------------------------
TEST(RotationLogMap, InvertsExpMap) {
  std::mt19937 gen(4);
  double worst = 0.0;
  for (int k = 0; k < 1000; ++k) {
    const Vec3 phi = random_vector(gen, 0.0, pi);
    const Vec3 back = log_map(exp_map(phi));
    worst = std::max(worst, (back - phi).norm());
    EXPECT_LE((back - phi).norm(), 1e-12) << phi.transpose();
  }
  EXPECT_LE(worst, 1e-14);  // measured ~2e-15
}

TEST(RotationLogMap, AnglesAboveAHalfTurnWrapIntoZeroToPi) {
  std::mt19937 gen(5);
  for (int k = 0; k < 50; ++k) {
    const Vec3 n = random_unit(gen);
    const double theta = std::uniform_real_distribution<double>(pi + 0.01, 2 * pi - 0.01)(gen);
    // A rotation by θ about n is a rotation by 2π − θ about −n.
    EXPECT_LE((log_map(exp_map((theta * n).eval())) + (2 * pi - theta) * n).norm(), 1e-13);
  }
}

TEST(RotationLogMap, SmallAnglesUseTheSeriesAccurately) {
  EXPECT_EQ(log_map(Mat3::Identity().eval()), Vec3::Zero());
  std::mt19937 gen(6);
  for (const double theta : {2e-2, 1.0001e-2, 0.9999e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12}) {
    for (int k = 0; k < 10; ++k) {
      const Vec3 phi = theta * random_unit(gen);
      // Rotation matrix from the long-double closed form, rounded to double.
      const Mat3 r = Reference(phi).exp.cast<double>();
      const Vec3 back = log_map(r);
      EXPECT_LE((back - phi).norm(), 1e-14 * theta) << "theta " << theta;
    }
  }
}

TEST(RotationLogMap, NearAndAtAHalfTurn) {
  std::mt19937 gen(7);
  for (const double gap : {1e-2, 1e-4, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10}) {
    for (int k = 0; k < 20; ++k) {
      const Vec3 phi = (pi - gap) * random_unit(gen);
      EXPECT_LE((log_map(exp_map(phi)) - phi).norm(), 1e-13) << "pi - " << gap;
    }
  }
  for (int k = 0; k < 20; ++k) {
    const Vec3 phi = pi * random_unit(gen);
    const Vec3 back = log_map(exp_map(phi));
    EXPECT_LE(std::min((back - phi).norm(), (back + phi).norm()), 1e-13);
    EXPECT_NEAR(back.norm(), pi, 1e-14);
  }
  // Exact half turns about coordinate axes.
  const Mat3 half_x = Eigen::Vector3d(1, -1, -1).asDiagonal();
  const Vec3 back = log_map(half_x);
  EXPECT_NEAR(std::abs(back.x()), pi, 1e-15);
  EXPECT_EQ(back.y(), 0.0);
  EXPECT_EQ(back.z(), 0.0);
}

TEST(RotationLogMap, ContinuousAcrossTheQuarterTurnBranch) {
  // θ = π/2 separates the skew-part and symmetric-part formulas.
  std::mt19937 gen(8);
  for (const double theta : {pi / 2 - 1e-12, pi / 2, pi / 2 + 1e-12}) {
    const Vec3 phi = theta * random_unit(gen);
    EXPECT_LE((log_map(exp_map(phi)) - phi).norm(), 1e-15);
  }
}

// ---------------------------------------------------------------------------------------------
/// Central difference of d/dε exp(φ + ε e_j) exp(φ)ᵀ, which should be skew(T(φ) e_j).
void expect_left_tangent_by_finite_differences(const Vec3& phi) {
  const double h = 1e-6;
  const Mat3 t = tangent_exp(phi);
  const Mat3 rt = exp_map(phi).transpose();
  for (int j = 0; j < 3; ++j) {
    const Vec3 e = Vec3::Unit(j);
    const Mat3 d = (exp_map((phi + h * e).eval()) - exp_map((phi - h * e).eval())) / (2 * h) * rt;
    EXPECT_LE(max_diff(d, skew<double>(t.col(j))), 1e-9) << phi.transpose() << " column " << j;
    // The material (right) tangent is Tᵀ.
    const Mat3 dm = rt * (exp_map((phi + h * e).eval()) - exp_map((phi - h * e).eval())) / (2 * h);
    EXPECT_LE(max_diff(dm, skew<double>(t.row(j).transpose())), 1e-9);
  }
}

TEST(RotationTangent, ExpMapTangentMatchesFiniteDifferences) {
  std::mt19937 gen(9);
  for (int k = 0; k < 30; ++k) expect_left_tangent_by_finite_differences(random_vector(gen, 0.1, 3.0));
  for (const double theta : {0.0, 1e-8, 1e-4, 0.05, 0.0999}) {  // series branch
    expect_left_tangent_by_finite_differences(theta * random_unit(gen));
  }
}

TEST(RotationTangent, SeriesBranchMatchesLongDoubleClosedForm) {
  std::mt19937 gen(10);
  for (const double theta : {0.5, 0.1000001, 0.0999999, 0.05, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8}) {
    for (int k = 0; k < 10; ++k) {
      const Vec3 phi = theta * random_unit(gen);
      const Reference ref(phi);
      expect_near_reference(tangent_exp(phi), ref.tangent, theta, 1e-15);
      expect_near_reference(tangent_exp_inverse(phi), ref.tangent_inverse, theta, 1e-15);
    }
  }
}

TEST(RotationTangent, InverseAndInvariantAxis) {
  std::mt19937 gen(11);
  std::vector<Vec3> samples{Vec3::Zero()};
  for (const double theta : {1e-9, 1e-3, 0.0999, 0.1001, 1.0, 3.0, 5.0}) {
    for (int k = 0; k < 5; ++k) samples.emplace_back(theta * random_unit(gen));
  }
  for (const Vec3& phi : samples) {
    const Mat3 t = tangent_exp(phi);
    const Mat3 ti = tangent_exp_inverse(phi);
    EXPECT_LE(max_diff(t * ti, Mat3::Identity()), 1e-14) << phi.transpose();
    EXPECT_LE(max_diff(ti * t, Mat3::Identity()), 1e-14);
    EXPECT_LE(max_diff(t * phi, phi), 1e-15 * (1 + phi.norm()));
    EXPECT_LE(max_diff(ti * phi, phi), 1e-15 * (1 + phi.norm()));
  }
}

// ---------------------------------------------------------------------------------------------
TEST(RotationCayley, IsARotationAndInvertible) {
  std::mt19937 gen(12);
  for (int k = 0; k < 100; ++k) {
    const Vec3 c = random_vector(gen, 0.0, 10.0);
    const Mat3 r = cayley(c);
    EXPECT_LE(max_diff(r.transpose() * r, Mat3::Identity()), 1e-14);
    EXPECT_NEAR(r.determinant(), 1.0, 1e-14);
    EXPECT_LE((cayley_inverse(r) - c).norm(), 1e-13 * (1 + c.squaredNorm()));
    // c = 2 tan(θ/2) n.
    const double theta = 2 * std::atan(c.norm() / 2);
    EXPECT_LE(max_diff(r, exp_map((theta * c.normalized()).eval())), 1e-14);
    // The definition (I − ĉ/2)⁻¹ (I + ĉ/2).
    const Mat3 half = 0.5 * skew(c);
    EXPECT_LE(max_diff(r, (Mat3::Identity() - half).inverse() * (Mat3::Identity() + half)), 1e-13);
  }
  for (int k = 0; k < 100; ++k) {
    const Mat3 r = exp_map(random_vector(gen, 0.0, pi - 0.1));
    EXPECT_LE(max_diff(cayley(cayley_inverse(r)), r), 1e-13);
  }
  EXPECT_EQ(cayley_inverse(Mat3::Identity().eval()), Vec3::Zero());
}

TEST(RotationCayley, InverseThrowsNearAHalfTurn) {
  const Vec3 n = Vec3(1, 2, -2) / 3;
  EXPECT_THROW(static_cast<void>(cayley_inverse(exp_map((pi * n).eval()))), std::domain_error);
  EXPECT_THROW(static_cast<void>(cayley_inverse(exp_map(((pi - 1e-6) * n).eval()))),
               std::domain_error);
  EXPECT_THROW(static_cast<void>(cayley_inverse(Mat3::Constant(std::nan("")).eval())),
               std::domain_error);
  EXPECT_NO_THROW(static_cast<void>(cayley_inverse(exp_map(((pi - 1e-3) * n).eval()))));
  try {
    static_cast<void>(cayley_inverse(exp_map((pi * n).eval())));
  } catch (const std::domain_error& e) {
    EXPECT_NE(std::string(e.what()).find("half turn"), std::string::npos) << e.what();
  }
}

TEST(RotationCayleyTangent, MatchesFiniteDifferences) {
  std::mt19937 gen(13);
  const double h = 1e-6;
  for (int k = 0; k < 30; ++k) {
    const Vec3 c = k == 0 ? Vec3::Zero().eval() : random_vector(gen, 0.0, 5.0);
    const Mat3 t = tangent_cayley(c);
    const Mat3 rt = cayley(c).transpose();
    for (int j = 0; j < 3; ++j) {
      const Vec3 e = Vec3::Unit(j);
      const Mat3 d = (cayley((c + h * e).eval()) - cayley((c - h * e).eval())) / (2 * h) * rt;
      EXPECT_LE(max_diff(d, skew<double>(t.col(j))), 1e-9) << c.transpose();
    }
  }
}

// ---------------------------------------------------------------------------------------------
TEST(RotationQuaternion, RoundTripAndAgreementWithEigen) {
  std::mt19937 gen(14);
  for (int k = 0; k < 200; ++k) {
    const Vec3 phi = random_vector(gen, 0.0, pi);
    const Quaternion q = quaternion_from_rotation_vector(phi);
    EXPECT_NEAR(q.norm(), 1.0, 1e-15);
    const Quaternion expected(Eigen::AngleAxisd(phi.norm(), phi.normalized()));
    EXPECT_LE(max_diff(q.coeffs(), expected.coeffs()), 1e-15);
    EXPECT_LE(max_diff(q.toRotationMatrix(), exp_map(phi)), 1e-14);
    EXPECT_LE((rotation_vector(q) - phi).norm(), 1e-14);
    const Quaternion minus_q(-q.w(), -q.x(), -q.y(), -q.z());
    EXPECT_LE((rotation_vector(minus_q) - phi).norm(), 1e-14);
    const Quaternion scaled(3 * q.w(), 3 * q.x(), 3 * q.y(), 3 * q.z());
    EXPECT_LE((rotation_vector(scaled) - phi).norm(), 1e-14);
    EXPECT_LE((rotation_vector(Quaternion(exp_map(phi))) - log_map(exp_map(phi))).norm(), 1e-14);
  }
}

TEST(RotationQuaternion, SmallAnglesAndHalfTurns) {
  EXPECT_EQ(rotation_vector(quaternion_from_rotation_vector(Vec3::Zero())), Vec3::Zero());
  EXPECT_EQ(quaternion_from_rotation_vector(Vec3::Zero()).coeffs(), Quaternion::Identity().coeffs());
  std::mt19937 gen(15);
  for (const double theta : {0.2, 0.1000001, 0.0999999, 1e-2, 1e-4, 1e-8, 1e-12, 1e-200}) {
    const Vec3 phi = theta * random_unit(gen);
    const Quaternion q = quaternion_from_rotation_vector(phi);
    const long double half = 0.5L * theta;
    const Vec3L v = (std::sin(half) / static_cast<long double>(theta)) * phi.cast<long double>();
    EXPECT_LE(max_diff(q.vec().cast<long double>(), v), 1e-16L * theta) << theta;
    EXPECT_LE((rotation_vector(q) - phi).norm(), 1e-15 * theta) << theta;
  }
  for (const double gap : {1e-4, 1e-8, 1e-10, 0.0}) {
    const Vec3 phi = (pi - gap) * random_unit(gen);
    const Quaternion q = quaternion_from_rotation_vector(phi);
    const Quaternion minus_q(-q.w(), -q.x(), -q.y(), -q.z());
    for (const Quaternion& p : {q, minus_q}) {
      const Vec3 back = rotation_vector(p);
      EXPECT_LE(std::min((back - phi).norm(), (back + phi).norm()), 1e-14) << "pi - " << gap;
      if (gap > 0.0) {
        EXPECT_LE((back - phi).norm(), 1e-14);
      }
    }
  }
  // Angles above π are wrapped: the result has angle 2π − θ about the opposite axis.
  const Vec3 n = Vec3(2, -1, 2) / 3;
  EXPECT_LE((rotation_vector(quaternion_from_rotation_vector(1.5 * pi * n)) + 0.5 * pi * n).norm(),
            1e-14);
}

// ---------------------------------------------------------------------------------------------
Vec3T<Ad> seed(const Vec3& phi) {
  Vec3T<Ad> v;
  for (int i = 0; i < 3; ++i) v(i) = Ad(phi(i), Eigen::Vector3d::Unit(i));
  return v;
}

Vec3T<Ad2> seed2(const Vec3& phi) {
  Vec3T<Ad2> v;
  for (int i = 0; i < 3; ++i) {
    Eigen::Matrix<Ad, 3, 1> d;
    for (int j = 0; j < 3; ++j) d(j) = Ad(i == j ? 1.0 : 0.0, Eigen::Vector3d::Zero());
    v(i) = Ad2(Ad(phi(i), Eigen::Vector3d::Unit(i)), d);
  }
  return v;
}

/// Jacobian (rows: components of v, columns: components of φ).
Mat3 jacobian(const Vec3T<Ad>& v) {
  Mat3 j;
  for (int i = 0; i < 3; ++i) j.row(i) = v(i).derivatives().transpose();
  return j;
}

std::vector<Vec3> autodiff_samples() {
  std::mt19937 gen(16);
  std::vector<Vec3> s{Vec3::Zero()};
  // Series branches, boundaries, generic angles, above π/2 (symmetric-part branch of log_map).
  for (const double theta : {1e-6, 0.05, 0.0999999, 0.1000001, 0.7, 1.5, 2.0, 3.0}) {
    s.emplace_back(theta * random_unit(gen));
  }
  return s;
}

TEST(RotationDual, ExpMapDerivativeIsTheLeftTangent) {
  const Vec3 a(0.3, -1.2, 0.8);
  for (const Vec3& phi : autodiff_samples()) {
    const Vec3T<Ad> ra = exp_map(seed(phi)) * a.cast<Ad>();
    const Mat3 r = exp_map(phi);
    // δ(R a) = skew(T δ) R a = −skew(R a) T δ.
    const Mat3 expected = -skew<double>(r * a) * tangent_exp(phi);
    EXPECT_LE(max_diff(jacobian(ra), expected), 1e-14) << phi.transpose();
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(ra(i).value(), (r * a)(i), 1e-15);
  }
}

TEST(RotationDual, LogMapDifferentiatesToTheIdentity) {
  // log(exp(φ)) = φ for |φ| < π, so its Jacobian is I in every branch of log_map.
  for (const Vec3& phi : autodiff_samples()) {
    const Vec3T<Ad> back = log_map(exp_map(seed(phi)));
    EXPECT_LE(max_diff(jacobian(back), Mat3::Identity()), 1e-13) << phi.transpose();
    // Derivatives of the tangent operators, through their series and closed forms.
    const Mat3T<Ad> t = tangent_exp(seed(phi));
    const Mat3T<Ad> ti = tangent_exp_inverse(seed(phi));
    const Mat3T<Ad> product = t * ti;
    for (int i = 0; i < 9; ++i) {
      EXPECT_NEAR(product(i).value(), Mat3(Mat3::Identity())(i), 1e-14);
      EXPECT_LE(product(i).derivatives().cwiseAbs().maxCoeff(), 1e-13) << phi.transpose();
    }
  }
}

TEST(RotationDual, NestedSecondDerivatives) {
  const Vec3 a(0.3, -1.2, 0.8);
  const double h = 1e-5;
  for (const Vec3& phi : autodiff_samples()) {
    // |log(exp(φ))|² = |φ|²: gradient 2φ, Hessian 2I.
    const Vec3T<Ad2> back = log_map(exp_map(seed2(phi)));
    const Ad2 angle2 = back.squaredNorm();
    EXPECT_NEAR(angle2.value().value(), phi.squaredNorm(), 1e-14);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(angle2.value().derivatives()(i), 2 * phi(i), 1e-13);
      for (int j = 0; j < 3; ++j) {
        EXPECT_NEAR(angle2.derivatives()(i).derivatives()(j), i == j ? 2.0 : 0.0, 1e-12)
            << phi.transpose() << " entry " << i << j;
      }
    }
    // A component of R a: Hessian against central differences of the first derivatives.
    const Ad2 f = (exp_map(seed2(phi)) * a.cast<Ad2>())(0);
    Mat3 hessian;
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(f.derivatives()(i).value(), f.value().derivatives()(i), 1e-15);
      for (int j = 0; j < 3; ++j) hessian(i, j) = f.derivatives()(i).derivatives()(j);
    }
    EXPECT_LE(max_diff(hessian, hessian.transpose()), 1e-14);
    for (int j = 0; j < 3; ++j) {
      const Vec3 e = Vec3::Unit(j);
      const Vec3 gp = (exp_map(seed((phi + h * e).eval())) * a.cast<Ad>())(0).derivatives();
      const Vec3 gm = (exp_map(seed((phi - h * e).eval())) * a.cast<Ad>())(0).derivatives();
      EXPECT_LE(max_diff((gp - gm) / (2 * h), hessian.col(j)), 1e-8) << phi.transpose();
    }
  }
}

}  // namespace
}  // namespace catena::fem
