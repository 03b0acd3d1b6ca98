#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/csv.hpp"
#include "io/npy.hpp"
#include "io/remove_on_signal.hpp"

using namespace dpaudit;
namespace fs = std::filesystem;

namespace {

// A fresh folder for one test case, removed with everything in it.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = (fs::temp_directory_path() / "test_io_XXXXXX").string();
    REQUIRE(::mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DataError& e) {
    return e.what();
  }
  return "no error";
}

// An NPY v1.0 file of f8 values whose header says `shape` (Python's text, e.g.
// "(50,)"), whatever the body holds.
std::string npy_bytes(const std::string& shape, const std::vector<double>& body) {
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict.push_back('\n');
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(dict.size() & 0xff) +
                      char(dict.size() >> 8) + dict;
  bytes.append(reinterpret_cast<const char*>(body.data()), body.size() * 8);
  return bytes;
}

std::vector<double> iota(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = double(i);
  return v;
}

long peak_rss_kb() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Runs `child` in a forked process and returns its wait status. The child starts with
// SIGINT and SIGTERM at their default action, as a tool does (doctest catches them to
// report crashes), and ends by a signal or _exit(0).
int in_child(const std::function<void()>& child) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    child();
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return status;
}

}  // namespace

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
    CHECK(std::string(e.what()) ==
          "'abc' is not a finite number (test_io.csv, row 4, column 'score')");
  }
  CHECK(!r.next());
  std::remove(path.c_str());
}

TEST_CASE("quoted input is cut to 80 characters with an ellipsis, never inside a UTF-8 character") {
  CHECK(quote_input("abc") == "'abc'");
  CHECK(cut_input(std::string(80, 'x')) == std::string(80, 'x'));
  CHECK(cut_input(std::string(81, 'x')) == std::string(77, 'x') + "...");
  // A NUL byte would end the message where it is printed as a C string (what()), a newline
  // would make it two lines: written \xNN.
  CHECK(quote_input(std::string("0.5\0abc", 7)) == "'0.5\\x00abc'");
  CHECK(cut_input("a\nb\x7f") == "a\\x0ab\\x7f");
  // 76 ASCII bytes, then the 2-byte 'é' across the cut at 77: cut before it.
  CHECK(cut_input(std::string(76, 'x') + "\xC3\xA9" + std::string(10, 'y')) ==
        std::string(76, 'x') + "...");
  // A 10 MB field gives a short error (issue 9 item 12).
  const std::string path = "test_io_long.csv";
  std::ofstream(path) << "label,score\n1," << std::string(10000000, '7') << "x\n";
  CsvReader r(path);
  REQUIRE(r.next());
  try {
    r.number(r.column("score"));
    FAIL("text accepted as a number");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()) ==
          "'" + std::string(77, '7') +
              "...' is not a finite number (test_io_long.csv, row 2, column 'score')");
  }
  std::remove(path.c_str());
}

TEST_CASE("parse_finite rejects nan, inf and trailing text") {
  CHECK(parse_finite("1e-3").value() == 1e-3);
  CHECK(!parse_finite("nan"));
  CHECK(!parse_finite("inf"));
  CHECK(!parse_finite("1.0x"));
  CHECK(!parse_finite(""));
}

// The syntax parse_finite accepts, pinned before its fast path was added (issue 26): a
// number as std::from_chars reads it (general format: no hex, no inf or nan, an underflow
// to zero refused) after at most one leading '+' is dropped, the whole text and nothing
// else, finite. Every refused text is a "not a finite number" error.
TEST_CASE("parse_finite: the accepted and refused texts") {
  for (const char* text : {"",
                           "+",
                           "-",
                           "++1",
                           "-+1",
                           "--1",
                           ".",
                           "-.",
                           "+.",
                           "e5",
                           "1e",
                           "1e+",
                           "1e-",
                           "1e5.0",
                           "1..2",
                           "1.2.3",
                           "1d5",
                           "1_000",
                           "0x1p3",
                           "0x10",
                           "0X1P3",
                           "1p3",
                           " 1",
                           "1 ",
                           "\t1",
                           "1\r",
                           "1,0",
                           "nan",
                           "NaN",
                           "-nan",
                           "nan(1)",
                           "inf",
                           "-inf",
                           "+inf",
                           "Inf",
                           "infinity",
                           "1e400",
                           "-1e400",
                           "1e310",
                           "2e308",
                           "1.8e308",
                           "1e-400",
                           "-1e-400",
                           "1e-324",
                           "2e-324",
                           "0x",
                           "1e5e5",
                           "1 000",
                           "１",
                           "\xEF\xBB\xBF"
                           "1",
                           "1f",
                           "1.0f",
                           "true",
                           "1e+-5",
                           "- 1"})
    CHECK_MESSAGE(!parse_finite(text), "accepted: '" << std::string(text) << "'");
  const std::pair<const char*, double> accepted[] = {
      {"0", 0.0},
      {"-0", -0.0},
      {"+0", 0.0},
      {"+1", 1.0},
      {"+-1", -1.0},  // the '+' is dropped, then "-1" is read
      {"1.", 1.0},
      {".5", 0.5},
      {"-.5", -0.5},
      {"+.5", 0.5},
      {"00012", 12.0},
      {"1e5", 1e5},
      {"1E5", 1e5},
      {"1e+5", 1e5},
      {"1e-5", 1e-5},
      {"1e05", 1e5},
      {"-2.5E-3", -2.5e-3},
      {"0.1", 0.1},
      {"0.30000000000000004", 0.30000000000000004},
      {"-0.12345678901234567", -0.12345678901234567},
      {"1.7976931348623157e308", 1.7976931348623157e308},
      {"2.2250738585072014e-308", 2.2250738585072014e-308},
      {"4.9406564584124654e-324", 4.9406564584124654e-324},  // the least subnormal
      {"3e-324", 4.9406564584124654e-324},
      // 2^53 + 1 lies halfway between two doubles: ties go to the even one, 2^53.
      {"9007199254740993", 9007199254740992.0},
      {"9007199254740995", 9007199254740996.0},
      // 1 + 2^-53 exactly (halfway, to even: 1), and just above it (up).
      {"1.00000000000000011102230246251565404236316680908203125", 1.0},
      {"1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002},
      {"123456789012345678901234567890", 1.2345678901234568e29},
      {"0.000000000000000000000000000000000000001", 1e-39},
      {"1234567890123456789", 1234567890123456789.0},
      {"12345678901234567890", 12345678901234567890.0},
  };
  for (const auto& [text, value] : accepted) {
    const auto v = parse_finite(text);
    REQUIRE_MESSAGE(v, "refused: '" << std::string(text) << "'");
    CHECK_MESSAGE(*v == value, std::string(text));
    CHECK_MESSAGE(std::signbit(*v) == std::signbit(value), std::string(text));
  }
}

namespace {

// parse_finite as it was before its fast path (issue 26): the reference the fast path
// must agree with on every text, value for value and refusal for refusal.
std::optional<double> parse_finite_by_from_chars(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

void check_parses_like_from_chars(const std::string& text) {
  const auto fast = parse_finite(text), reference = parse_finite_by_from_chars(text);
  REQUIRE_MESSAGE(fast.has_value() == reference.has_value(), text);
  if (fast) {
    std::uint64_t a, b;
    std::memcpy(&a, &*fast, 8);
    std::memcpy(&b, &*reference, 8);
    REQUIRE_MESSAGE(a == b, text);  // the same bits: sign of zero included
  }
}

}  // namespace

TEST_CASE("parse_finite agrees with std::from_chars on random numbers and random texts") {
  std::mt19937_64 gen(26);
  // Doubles of every exponent written shortest (as Python's repr and fmt do), with 17
  // digits, with 25 digits (past the fast path's 19), and in fixed notation.
  for (int i = 0; i < 50000; ++i) {
    std::uint64_t u = gen();
    double x;
    std::memcpy(&x, &u, 8);
    if (!std::isfinite(x)) continue;
    check_parses_like_from_chars(fmt::format("{}", x));
    check_parses_like_from_chars(fmt::format("{:.17g}", x));
    check_parses_like_from_chars(fmt::format("{:.25e}", x));
    if (std::abs(x) < 1e30 && std::abs(x) > 1e-30)
      check_parses_like_from_chars(fmt::format("{:f}", x));
  }
  std::normal_distribution<double> normal;
  for (int i = 0; i < 50000; ++i) {
    const double x = normal(gen) * std::pow(10.0, static_cast<int>(gen() % 40) - 20);
    check_parses_like_from_chars(fmt::format("{}", x));
    check_parses_like_from_chars(fmt::format("{:.{}g}", x, 1 + gen() % 20));
  }
  // Short texts over the characters of numbers and a few others.
  const std::string alphabet = "0123456789012345678900000.eE+- x";
  for (int i = 0; i < 100000; ++i) {
    std::string text(1 + gen() % 12, ' ');
    for (char& c : text) c = alphabet[gen() % alphabet.size()];
    check_parses_like_from_chars(text);
  }
}

TEST_CASE("is_whole_number: whole, at least the lowest, and at most 2^53 (exact as a double)") {
  CHECK(is_whole_number(0));
  CHECK(is_whole_number(3, 1));
  CHECK_FALSE(is_whole_number(0, 1));
  CHECK_FALSE(is_whole_number(-1));
  CHECK_FALSE(is_whole_number(2.5));
  CHECK(is_whole_number(9007199254740992.0));        // 2^53
  CHECK_FALSE(is_whole_number(9007199254740994.0));  // 2^53 + 2: past it, odd ones are lost
  CHECK_FALSE(is_whole_number(std::nan("")));
  CHECK_FALSE(is_whole_number(std::numeric_limits<double>::infinity()));
}

TEST_CASE("NPY: a header claiming more values than the file holds is refused at open") {
  TempDir dir;
  const std::string path = dir / "claim.npy";
  spit(path, npy_bytes("(2000000000,)", iota(100)));
  // The row reader's constructor refuses it: no caller allocates 16 GB for a row.
  CHECK_THROWS_WITH_AS(
      NpyReader{path},
      ("NPY data truncated: header says 2000000000 values, file holds 100 (" + path + ")").c_str(),
      DataError);
  CHECK_THROWS_WITH_AS(
      read_npy(path),
      ("NPY data truncated: header says 2000000000 values, file holds 100 (" + path + ")").c_str(),
      DataError);
  // A partial last value is counted as stray bytes.
  std::string bytes = npy_bytes("(4,)", iota(4));
  spit(path, bytes.substr(0, bytes.size() - 3));
  CHECK(error_of([&] { read_npy(path); }) ==
        "NPY data truncated: header says 4 values, file holds 3 values and 5 bytes (" + path + ")");
}

TEST_CASE("NPY: more data than the header says is an error, for whole reads and row readers") {
  TempDir dir;
  const std::string path = dir / "long.npy";
  spit(path, npy_bytes("(50,)", iota(100)));
  const std::string want =
      "NPY data too long: header says 50 values, file holds 100 (" + path + ")";
  CHECK(error_of([&] { read_npy(path); }) == want);
  CHECK(error_of([&] { NpyReader r(path); }) == want);
  spit(path, npy_bytes("(2, 3)", iota(6)) + "xyz");
  CHECK(error_of([&] { NpyReader r(path); }) ==
        "NPY data too long: header says 6 values, file holds 6 values and 3 bytes (" + path + ")");
}

TEST_CASE("NPY: header lengths over numpy's 10000-byte limit are refused before allocating") {
  TempDir dir;
  const std::string path = dir / "v2.npy";
  // v2.0: a 4-byte length field, here 1.7 GB, then a few bytes of a dict.
  spit(path, std::string("\x93NUMPY\x02\x00\x00\xf1\x53\x65{'descr'", 20));
  CHECK(error_of([&] { read_npy(path); }) ==
        "NPY header length 1700000000 is over the limit of 10000 bytes (" + path + ")");
  // A header of exactly 10000 bytes (padded with blanks) is read; 10001 is not.
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }";
  for (const std::size_t len : {10000, 10001}) {
    std::string padded = dict + std::string(len - dict.size() - 1, ' ') + "\n";
    std::string bytes =
        std::string("\x93NUMPY\x01\x00", 8) + char(len & 0xff) + char(len >> 8) + padded;
    const std::vector<double> v = {1.5, -2};
    bytes.append(reinterpret_cast<const char*>(v.data()), 16);
    spit(path, bytes);
    if (len == 10000) {
      CHECK(read_npy(path).data == v);
    } else {
      CHECK(error_of([&] { read_npy(path); }) ==
            "NPY header length 10001 is over the limit of 10000 bytes (" + path + ")");
    }
  }
}

TEST_CASE("NPY: empty arrays, shape (0,) and (3, 0), read and write") {
  TempDir dir;
  const std::string path = dir / "empty.npy";
  save_npy(path, nullptr, {0});
  NpyArray a = read_npy(path);
  CHECK(a.header.shape == std::vector<std::size_t>{0});
  CHECK(a.data.empty());
  save_npy(path, nullptr, {3, 0});
  NpyReader r(path);
  for (int i = 0; i < 3; ++i) r.read_rows(1, nullptr);
  CHECK(r.rows_read() == 3);
  CHECK_THROWS_WITH_AS(r.read_rows(1, nullptr),
                       ("asked for rows past the end (3 rows) (" + path + ")").c_str(), DataError);
}

TEST_CASE("NPY from a pipe: memory grows with the data that arrives, not with the header's claim") {
  TempDir dir;
  const std::string fifo = dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Writes `bytes` into the FIFO (less than a pipe's 64 KiB: the write never waits on us).
  const auto send = [&](const std::string& bytes) {
    return std::thread([&fifo, bytes] { spit(fifo, bytes); });
  };

  // 200 million values claimed (1.6 GB), 100 sent.
  std::thread writer = send(npy_bytes("(200000000,)", iota(100)));
  const long before = peak_rss_kb();
  CHECK(error_of([&] { read_npy(fifo); }) ==
        "NPY data truncated: header says 200000000 values, file holds 100 (" + fifo + ")");
  writer.join();
  CHECK(peak_rss_kb() - before < 64 * 1024);  // the first chunk is 8 MiB

  writer = send(npy_bytes("(50,)", iota(100)));
  CHECK(error_of([&] { read_npy(fifo); }) ==
        "NPY data too long: header says 50 values, file holds more (" + fifo + ")");
  writer.join();

  writer = send(npy_bytes("(2, 50)", iota(100)));
  NpyReader rows(fifo);
  std::vector<double> row(50);
  rows.read_rows(1, row.data());
  rows.read_rows(1, row.data());
  const std::vector<double> all = iota(100);
  CHECK(row == std::vector<double>(all.begin() + 50, all.end()));
  writer.join();
}

TEST_CASE("AtomicOutput: a symlink stays a link and its final target gets the content") {
  TempDir dir;
  fs::create_directories(dir.path / "real");
  fs::create_directories(dir.path / "links");
  spit(dir / "real/out.csv", "old\n");
  fs::create_symlink("../real/out.csv", dir.path / "links/hop");  // relative to the link's folder
  fs::create_symlink("hop", dir.path / "links/out.csv");          // two links deep
  ::chmod((dir / "real/out.csv").c_str(), 0640);
  AtomicOutput out(dir / "links/out.csv");
  out.stream() << "new\n";
  out.commit();
  CHECK(fs::is_symlink(dir.path / "links/out.csv"));
  CHECK(fs::read_symlink(dir.path / "links/out.csv") == "hop");
  CHECK(slurp(dir / "real/out.csv") == "new\n");
  CHECK((fs::status(dir.path / "real/out.csv").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(names_in(dir.path / "real") == std::set<std::string>{"out.csv"});  // no temporary file left
  CHECK(names_in(dir.path / "links") == std::set<std::string>{"hop", "out.csv"});

  // A dangling link: the file it names is created, the link kept.
  fs::create_symlink("../real/new.csv", dir.path / "links/dangling");
  AtomicOutput created(dir / "links/dangling");
  created.stream() << "made\n";
  created.commit();
  CHECK(fs::is_symlink(dir.path / "links/dangling"));
  CHECK(slurp(dir / "real/new.csv") == "made\n");

  fs::create_symlink("loop", dir.path / "links/loop");
  CHECK(error_of([&] { AtomicOutput o(dir / "links/loop"); }) ==
        "too many levels of symbolic links (" + dir / "links/loop" + ")");
}

TEST_CASE("AtomicOutput: devices and FIFOs are written directly, never replaced") {
  AtomicOutput full("/dev/full");
  full.stream() << "lost\n";
  CHECK(error_of([&] { full.commit(); }) == "disk full (/dev/full)");
  CHECK(fs::is_character_file("/dev/full"));

  TempDir dir;
  const std::string fifo = dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  {
    AtomicOutput out(fifo);  // opens when the reader has
    out.stream() << "label,score\n1,0.5\n";
    out.commit();
  }
  reader.join();
  CHECK(got == "label,score\n1,0.5\n");
  CHECK(fs::is_fifo(fifo));
  CHECK(names_in(dir.path) == std::set<std::string>{"fifo"});
}

TEST_CASE("AtomicOutput: a directory is an error; without commit() nothing changes") {
  TempDir dir;
  CHECK(error_of([&] { AtomicOutput o(dir.path.string()); }) ==
        "is a directory, not an output file (" + dir.path.string() + ")");
  spit(dir / "keep.txt", "kept\n");
  {
    AtomicOutput out(dir / "keep.txt");
    out.stream() << "half";
  }
  CHECK(slurp(dir / "keep.txt") == "kept\n");
  CHECK(names_in(dir.path) == std::set<std::string>{"keep.txt"});
}

TEST_CASE("SIGTERM/SIGINT remove temporary outputs, then end the process by the signal") {
  TempDir dir;
  spit(dir / "out.npy", "previous");
  int status = in_child([&] {
    AtomicOutput out(dir / "out.npy");
    out.stream() << "partial";
    out.stream().flush();
    ::kill(::getpid(), SIGTERM);
  });
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(names_in(dir.path) == std::set<std::string>{"out.npy"});
  CHECK(slurp(dir / "out.npy") == "previous");

  // A folder goes with the files in it; an unregistered path stays.
  status = in_child([&] {
    fs::create_directories(dir.path / "run.partial-1");
    spit(dir / "run.partial-1/delta.npy", "x");
    spit(dir / "run.partial-1/.metrics.csv.tmp1", "y");
    { RemoveOnSignal gone_before(dir / "out.npy", RemoveOnSignal::Kind::file); }
    RemoveOnSignal staging(dir / "run.partial-1", RemoveOnSignal::Kind::folder);
    ::kill(::getpid(), SIGINT);
  });
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  CHECK(names_in(dir.path) == std::set<std::string>{"out.npy"});

  // A signal the process was started with ignored stays ignored.
  status = in_child([&] {
    ::signal(SIGHUP, SIG_IGN);
    RemoveOnSignal kept(dir / "out.npy", RemoveOnSignal::Kind::file);
    ::kill(::getpid(), SIGHUP);
  });
  CHECK(WIFEXITED(status));
  CHECK(fs::exists(dir.path / "out.npy"));
}
