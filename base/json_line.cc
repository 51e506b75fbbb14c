#include "base/json_line.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace slurmtopo {
namespace {

using nlohmann::json;

// A char iterator that tells the SAX handler how far the parser has read.
struct TrackingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p;
  const char** read_up_to;
  reference operator*() const { return *p; }
  TrackingIterator& operator++() {
    *read_up_to = ++p;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& o) const { return p == o.p; }
  bool operator!=(const TrackingIterator& o) const { return p != o.p; }
};

// Follows the path of every SAX event and stops at the first one equal to the target.
class LineFinder : public nlohmann::json_sax<json> {
 public:
  LineFinder(std::string target, std::string_view text, const char** read_up_to)
      : target_(std::move(target)), text_(text), read_up_to_(read_up_to) {}
  int line() const { return line_; }

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_object() override { return frames_.pop_back(), true; }
  bool end_array() override { return frames_.pop_back(), true; }
  bool key(string_t& k) override {
    frames_.back().key = k;
    return !hit();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  struct Frame {
    bool array;
    long index;
    std::string key;
  };
  bool open(bool array) {
    if (!value()) return false;
    frames_.push_back({array, -1, ""});
    return true;
  }
  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return !hit();
  }
  bool hit() {
    json::json_pointer here;
    for (const Frame& f : frames_) here /= f.array ? std::to_string(f.index) : f.key;
    if (here.to_string() != target_) return false;
    // The parser may have read one character past the token (a number's terminator).
    line_ = line_at_offset(text_, static_cast<size_t>(*read_up_to_ - text_.data()) - 1);
    return true;
  }
  std::string target_;
  std::string_view text_;
  const char** read_up_to_;
  std::vector<Frame> frames_;
  int line_ = 0;
};

}  // namespace

int line_at_offset(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

int json_line_of(std::string_view text, const json::json_pointer& where) {
  const char* read_up_to = text.data();
  LineFinder finder(where.to_string(), text, &read_up_to);
  TrackingIterator first{text.data(), &read_up_to};
  TrackingIterator last{text.data() + text.size(), &read_up_to};
  json::sax_parse(first, last, &finder);
  return finder.line();
}

}  // namespace slurmtopo
