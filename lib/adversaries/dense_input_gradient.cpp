#include "adversaries/dense_input_gradient.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/Core>

namespace dpaudit {

DenseInputGradient::DenseInputGradient(std::vector<std::int64_t> widths)
    : widths_(std::move(widths)) {
  if (widths_.size() < 2 || widths_.size() > 3)
    throw std::invalid_argument("DenseInputGradient: one or two linear layers (logreg, mlp)");
}

double DenseInputGradient::compute(const float* theta, const float* x, std::int64_t y) {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::VectorXf;
  const bool hidden = widths_.size() == 3;
  const Eigen::Index in = widths_[0], mid = hidden ? widths_[1] : in, classes = widths_.back();
  theta_ = theta;
  x_.assign(x, x + in);
  const Eigen::Map<const Vector> xv(x, in);
  std::size_t offset = 0;
  if (hidden) {  // z1 = W1 x + b1, h = relu(z1)
    const Eigen::Map<const Matrix> w1(theta, mid, in);
    const Eigen::Map<const Vector> b1(theta + mid * in, mid);
    const Vector z1 = w1 * xv + b1;
    mask_.resize(mid);
    h_.resize(mid);
    for (Eigen::Index k = 0; k < mid; ++k) {
      mask_[k] = z1[k] > 0 ? 1.0f : 0.0f;
      h_[k] = z1[k] > 0 ? z1[k] : 0.0f;
    }
    offset = static_cast<std::size_t>(mid * (in + 1));
  } else {
    h_ = x_;
  }
  const Eigen::Map<const Matrix> w2(theta + offset, classes, mid);
  const Eigen::Map<const Vector> b2(theta + offset + classes * mid, classes);
  const Eigen::Map<const Vector> hv(h_.data(), mid);
  Vector z2 = w2 * hv + b2;
  const float top = z2.maxCoeff();
  const double log_sum = std::log((z2.array() - top).exp().cast<double>().sum());
  const double loss = top + log_sum - z2[y];
  p_.resize(classes);
  Eigen::Map<Vector>(p_.data(), classes) =
      ((z2.array() - top).exp() / static_cast<float>(std::exp(log_sum))).matrix();
  e2_ = p_;
  e2_[y] -= 1.0f;
  const Eigen::Map<const Vector> e2(e2_.data(), classes);
  // g in dp-train's order: (W1, b1,) W2, b2.
  g_.resize(offset + static_cast<std::size_t>(classes * (mid + 1)));
  if (hidden) {
    e1_.resize(mid);
    Eigen::Map<Vector> e1(e1_.data(), mid);
    e1 = (w2.transpose() * e2).cwiseProduct(Eigen::Map<const Vector>(mask_.data(), mid));
    Eigen::Map<Matrix>(g_.data(), mid, in) = e1 * xv.transpose();
    Eigen::Map<Vector>(g_.data() + mid * in, mid) = e1;
  }
  Eigen::Map<Matrix>(g_.data() + offset, classes, mid) = e2 * hv.transpose();
  Eigen::Map<Vector>(g_.data() + offset + classes * mid, classes) = e2;
  return loss;
}

std::vector<float> DenseInputGradient::input_vjp(const float* w) const {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vector = Eigen::VectorXf;
  const bool hidden = widths_.size() == 3;
  const Eigen::Index in = widths_[0], mid = hidden ? widths_[1] : in, classes = widths_.back();
  const std::size_t offset = hidden ? static_cast<std::size_t>(mid * (in + 1)) : 0;
  const Eigen::Map<const Vector> xv(x_.data(), in), hv(h_.data(), mid), p(p_.data(), classes),
      e2(e2_.data(), classes);
  const Eigen::Map<const Matrix> w2(theta_ + offset, classes, mid), o2(w + offset, classes, mid);
  const Eigen::Map<const Vector> ob2(w + offset + classes * mid, classes);
  // a = O2 h + o2; the top layer's input h is x itself for logreg.
  Vector top = o2 * hv + ob2;
  std::vector<float> result(static_cast<std::size_t>(in));
  Eigen::Map<Vector> out(result.data(), in);
  if (!hidden) {
    out = w2.transpose() * (p.cwiseProduct(top) - p * p.dot(top)) +
          o2.transpose() * e2;  // W^T S a + O^T e
    return result;
  }
  const Eigen::Map<const Matrix> w1(theta_, mid, in), o1(w, mid, in);
  const Eigen::Map<const Vector> ob1(w + mid * in, mid), mask(mask_.data(), mid),
      e1(e1_.data(), mid);
  top += w2 * (o1 * xv + ob1).cwiseProduct(mask);  // a + W2 (m o b)
  const Vector r_h = w2.transpose() * (p.cwiseProduct(top) - p * p.dot(top)) + o2.transpose() * e2;
  out = w1.transpose() * r_h.cwiseProduct(mask) + o1.transpose() * e1;
  return result;
}

}  // namespace dpaudit
