#include "train/dense_per_example.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Core>

namespace dpaudit {

namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor>;
using Map = Eigen::Map<RowMajor>;

}  // namespace

DensePerExample::DensePerExample(std::vector<std::int64_t> widths) : widths_(std::move(widths)) {
  if (widths_.size() < 2) throw std::invalid_argument("DensePerExample: at least one layer");
  for (std::size_t l = 0; l + 1 < widths_.size(); ++l) {
    offsets_.push_back(parameters_);
    parameters_ += static_cast<std::size_t>(widths_[l + 1] * (widths_[l] + 1));
  }
  pre_.resize(widths_.size() - 1);
  act_.resize(widths_.size() - 1);
}

// Z_l = A_l W_l^T + b_l, A_{l+1} = ReLU(Z_l); A_0 = x (act_[0] is a copy of it).
void DensePerExample::forward(const float* theta, const float* x, std::size_t count) {
  const auto n = static_cast<Eigen::Index>(count);
  act_[0].assign(x, x + count * static_cast<std::size_t>(widths_[0]));
  for (std::size_t l = 0; l + 1 < widths_.size(); ++l) {
    const Eigen::Index in = widths_[l], out = widths_[l + 1];
    const ConstMap weight(theta + offsets_[l], out, in);
    const Eigen::Map<const Eigen::RowVectorXf> bias(theta + offsets_[l] + out * in, out);
    pre_[l].resize(count * static_cast<std::size_t>(out));
    Map z(pre_[l].data(), n, out);
    z.noalias() = ConstMap(act_[l].data(), n, in) * weight.transpose();
    z.rowwise() += bias;
    if (l + 2 < widths_.size()) {
      act_[l + 1].resize(pre_[l].size());
      Map(act_[l + 1].data(), n, out) = z.cwiseMax(0.0f);
    }
  }
}

void DensePerExample::add_clipped_sum(const float* theta, const float* x, const std::int64_t* y,
                                      std::size_t count, double clip, float* sum, double* norms) {
  if (count == 0) return;
  const auto n = static_cast<Eigen::Index>(count);
  const std::size_t layers = widths_.size() - 1;
  forward(theta, x, count);
  // errors[l] = dloss_i / dZ_l, row i for example i: softmax - one-hot at the top, then
  // back through W and the ReLU mask.
  std::vector<RowMajor> errors(layers);
  {
    const Eigen::Index classes = widths_.back();
    RowMajor g = ConstMap(pre_[layers - 1].data(), n, classes);
    for (Eigen::Index i = 0; i < n; ++i) {
      g.row(i).array() -= g.row(i).maxCoeff();
      g.row(i) = g.row(i).array().exp();
      g.row(i) /= g.row(i).sum();
      g(i, y[i]) -= 1.0f;
    }
    errors[layers - 1] = std::move(g);
  }
  for (std::size_t l = layers - 1; l > 0; --l) {
    const Eigen::Index in = widths_[l], out = widths_[l + 1];
    const ConstMap weight(theta + offsets_[l], out, in);
    errors[l - 1] = (errors[l] * weight)
                        .cwiseProduct(ConstMap(pre_[l - 1].data(), n, in).unaryExpr([](float v) {
                          return v > 0 ? 1.0f : 0.0f;
                        }));
  }
  // ||grad_i||^2 = sum_l (||A_{l,i}||^2 + 1) ||G_{l,i}||^2, in double.
  Eigen::VectorXd norm2 = Eigen::VectorXd::Zero(n);
  for (std::size_t l = 0; l < layers; ++l) {
    const ConstMap a(act_[l].data(), n, widths_[l]);
    norm2.array() += (a.rowwise().squaredNorm().cast<double>().array() + 1.0) *
                     errors[l].rowwise().squaredNorm().cast<double>().array();
  }
  Eigen::VectorXf factor(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double norm = std::sqrt(norm2[i]);
    if (norms) norms[i] = norm;
    factor[i] = static_cast<float>(norm > clip ? clip / norm : 1.0);
  }
  for (std::size_t l = 0; l < layers; ++l) {
    const Eigen::Index in = widths_[l], out = widths_[l + 1];
    const RowMajor scaled = factor.asDiagonal() * errors[l];
    Map(sum + offsets_[l], out, in).noalias() +=
        scaled.transpose() * ConstMap(act_[l].data(), n, in);
    Eigen::Map<Eigen::RowVectorXf>(sum + offsets_[l] + out * in, out) += scaled.colwise().sum();
  }
}

std::size_t DensePerExample::losses(const float* theta, const float* x, const std::int64_t* y,
                                    std::size_t count, double* loss) {
  forward(theta, x, count);
  const Eigen::Index classes = widths_.back();
  const ConstMap z(pre_.back().data(), static_cast<Eigen::Index>(count), classes);
  std::size_t correct = 0;
  for (Eigen::Index i = 0; i < z.rows(); ++i) {
    Eigen::Index arg = 0;
    const double top = z.row(i).maxCoeff(&arg);
    // loss = log sum_k exp(z_k) - z_y, with the maximum taken out first.
    loss[i] = top + std::log((z.row(i).cast<double>().array() - top).exp().sum()) - z(i, y[i]);
    correct += arg == y[i];
  }
  return correct;
}

void DensePerExample::predict(const float* theta, const float* x, std::size_t count,
                              std::int64_t* labels) {
  forward(theta, x, count);
  const ConstMap z(pre_.back().data(), static_cast<Eigen::Index>(count), widths_.back());
  for (Eigen::Index i = 0; i < z.rows(); ++i) {
    Eigen::Index arg = 0;
    z.row(i).maxCoeff(&arg);
    labels[i] = arg;
  }
}

}  // namespace dpaudit
