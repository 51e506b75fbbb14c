// A text cut into lines the way every line-based reader here needs it: numbered from 1, the
// '\n' dropped, a last line without one still counted. (A trailing '\r' is the reader's
// business: Slurm's files drop it, some formats treat it as a blank.)
#pragma once

#include <string_view>

namespace slurmtopo {

class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  // The next line into `line`; false at the end.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t eol = text_.find('\n', pos_);
    if (eol == std::string_view::npos) eol = text_.size();
    line = text_.substr(pos_, eol - pos_);
    pos_ = eol + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }  // of the line `next` gave last

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

}  // namespace slurmtopo
