#include "io/scene_shapes.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace catena::io::scene {

namespace {

using fem::Mat3;
using fem::Vec3;

/// A box of `sides` along the columns of `axes` (orthonormal).
SurfaceMesh box(const Vec3& sides, const Mat3& axes) {
  SurfaceMesh mesh;
  // Vertex i has bit 0, 1, 2 set where it is on the + side of axis 1, 2, 3.
  for (int i = 0; i < 8; ++i) {
    const Vec3 corner(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
    mesh.vertices.push_back(axes * corner.cwiseProduct(sides));
  }
  mesh.faces = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  return mesh;
}

/// The node's axes (u, v, w), w along node axis `axis`, right-handed.
Mat3 axes_along(int axis) {
  Mat3 e;
  for (int k = 0; k < 3; ++k) e.col(k) = Vec3::Unit((axis + 1 + k) % 3);
  return e;
}

SurfaceMesh cylinder(double radius, double length, int axis) {
  const Mat3 e = axes_along(axis);
  SurfaceMesh mesh;
  constexpr int n = cylinder_sides;
  for (const double w : {-0.5 * length, 0.5 * length})
    for (int i = 0; i < n; ++i) {
      const double angle = 2.0 * std::numbers::pi * i / n;
      mesh.vertices.push_back(e * Vec3(radius * std::cos(angle), radius * std::sin(angle), w));
    }
  std::vector<int> bottom, top;
  for (int i = 0; i < n; ++i) {
    const int next = (i + 1) % n;
    mesh.faces.push_back({i, next, n + next, n + i});
    bottom.push_back(n - 1 - i);
    top.push_back(n + i);
  }
  mesh.faces.push_back(bottom);
  mesh.faces.push_back(top);
  return mesh;
}

SurfaceMesh sphere(double radius) {
  SurfaceMesh mesh;
  constexpr int stacks = sphere_stacks, slices = sphere_slices;
  mesh.vertices.push_back(Vec3(0.0, 0.0, radius));
  for (int k = 1; k < stacks; ++k) {
    const double polar = std::numbers::pi * k / stacks;
    for (int i = 0; i < slices; ++i) {
      const double azimuth = 2.0 * std::numbers::pi * i / slices;
      mesh.vertices.push_back(radius * Vec3(std::sin(polar) * std::cos(azimuth), std::sin(polar) * std::sin(azimuth),
                                            std::cos(polar)));
    }
  }
  const int south = static_cast<int>(mesh.vertices.size());
  mesh.vertices.push_back(Vec3(0.0, 0.0, -radius));
  auto ring = [](int k, int i) { return 1 + (k - 1) * slices + (i % slices); };
  for (int i = 0; i < slices; ++i) {
    mesh.faces.push_back({0, ring(1, i), ring(1, i + 1)});
    for (int k = 1; k + 1 < stacks; ++k) mesh.faces.push_back({ring(k, i), ring(k + 1, i), ring(k + 1, i + 1), ring(k, i + 1)});
    mesh.faces.push_back({ring(stacks - 1, i), south, ring(stacks - 1, i + 1)});
  }
  return mesh;
}

/// Turns every face of a convex mesh about its centre to face outward (Newell's normal against
/// the direction from the centre to the face).
void orient_outward(SurfaceMesh& mesh) {
  for (auto& face : mesh.faces) {
    Vec3 normal = Vec3::Zero(), middle = Vec3::Zero();
    for (std::size_t k = 0; k < face.size(); ++k) {
      const Vec3& a = mesh.vertices[static_cast<std::size_t>(face[k])];
      const Vec3& b = mesh.vertices[static_cast<std::size_t>(face[(k + 1) % face.size()])];
      normal += a.cross(b);
      middle += a;
    }
    if (normal.dot(middle) < 0.0) std::reverse(face.begin(), face.end());
  }
}

}  // namespace

Vec3 inertia_box_sides(double mass, const Vec3& principal_moments) {
  const Vec3& I = principal_moments;
  Vec3 sides;
  for (int i = 0; i < 3; ++i) {
    const double sum = I[(i + 1) % 3] + I[(i + 2) % 3] - I[i];
    sides[i] = std::sqrt(std::max(0.0, 6.0 * sum / mass));
  }
  const double smallest = min_side_fraction * sides.maxCoeff();
  return sides.cwiseMax(smallest);
}

SurfaceMesh body_surface(const fem::BodyShape& shape, double mass, const Mat3& inertia) {
  using Kind = fem::BodyShape::Kind;
  SurfaceMesh mesh;
  switch (shape.kind) {
    case Kind::None: return mesh;
    case Kind::Box: mesh = box(shape.sides, Mat3::Identity()); break;
    case Kind::Cylinder: mesh = cylinder(shape.radius, shape.length, shape.axis); break;
    case Kind::Sphere: mesh = sphere(shape.radius); break;
    case Kind::FromInertia: {
      if (!(mass > 0.0)) return mesh;
      const Eigen::SelfAdjointEigenSolver<Mat3> principal(0.5 * (inertia + inertia.transpose()));
      const Vec3 sides = inertia_box_sides(mass, principal.eigenvalues());
      if (!(sides.maxCoeff() > 0.0)) return mesh;
      mesh = box(sides, principal.eigenvectors());
      break;
    }
  }
  orient_outward(mesh);
  return mesh;
}

}  // namespace catena::io::scene
