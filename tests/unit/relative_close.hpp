// |got - want| <= rel * |want|: the relative tolerance the unit tests state beside
// each golden number.
#pragma once
#include <cmath>

inline bool close(double got, double want, double rel) {
  return std::abs(got - want) <= rel * std::abs(want);
}
