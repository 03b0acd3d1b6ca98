#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "io/csv.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"

using namespace dpaudit;

TEST_CASE("NPY round trip, f8 2-D and f4 1-D") {
  const std::string path = "test_io_roundtrip.npy";
  const double m[6] = {1.5, -2.0, 3.25, 0.0, 1e-300, 7.0};
  save_npy(path, m, {2, 3});
  NpyArray a = read_npy(path);
  CHECK(a.rows() == 2);
  CHECK(a.cols() == 3);
  for (int i = 0; i < 6; ++i) CHECK(a.data[i] == m[i]);

  save_npy(path, m, {6}, NpyDtype::f4);
  a = read_npy(path);
  CHECK(a.header.shape.size() == 1);
  CHECK(a.cols() == 6);
  CHECK(a.data[2] == 3.25);  // exactly representable in float32
  CHECK(a.data[4] == 0.0);   // 1e-300 underflows to 0 in float32
  std::remove(path.c_str());
}

TEST_CASE("NPY header is 64-byte aligned as numpy writes it") {
  std::ostringstream s;
  const double v[3] = {1, 2, 3};
  write_npy(s, v, {3});
  const std::string bytes = s.str();
  CHECK(bytes.size() == 128 + 3 * 8);  // 10 + 58-char dict + newline pads to 128
  CHECK(bytes.substr(10, 48) == "{'descr': '<f8', 'fortran_order': False, 'shape'");
}

TEST_CASE("NPY errors: truncated body and NaN name the place") {
  const std::string path = "test_io_bad.npy";
  const double v[4] = {1, 2, NAN, 4};
  save_npy(path, v, {2, 2});
  try {
    read_npy(path);
    FAIL("NaN accepted");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()).find("row 1, column 0") != std::string::npos);
  }
  std::ostringstream s;
  write_npy(s, v, {4});
  std::ofstream(path, std::ios::binary) << s.str().substr(0, s.str().size() - 3);
  CHECK_THROWS_AS(read_npy(path, false), DataError);
  std::remove(path.c_str());
}

TEST_CASE("CSV: columns by name, row and column in errors") {
  const std::string path = "test_io.csv";
  std::ofstream(path) << "id,score,label\n7, 0.5 ,1\n\n8,abc,0\n";
  CsvReader r(path);
  const auto score = r.column("score"), label = r.column("label");
  CHECK_THROWS_AS(r.column("round"), DataError);
  REQUIRE(r.next());
  CHECK(r.number(score) == 0.5);
  CHECK(r.label(label) == 1);
  REQUIRE(r.next());
  CHECK(r.line() == 4);
  try {
    r.number(score);
    FAIL("text accepted as a number");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()) == "'abc' is not a finite number (test_io.csv, row 4, column 'score')");
  }
  CHECK(!r.next());
  std::remove(path.c_str());
}

TEST_CASE("parse_finite rejects nan, inf and trailing text") {
  CHECK(parse_finite("1e-3").value() == 1e-3);
  CHECK(!parse_finite("nan"));
  CHECK(!parse_finite("inf"));
  CHECK(!parse_finite("1.0x"));
  CHECK(!parse_finite(""));
}
