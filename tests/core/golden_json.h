// A small JSON reader for the golden files of tests/golden (written by scripts/make_golden_*.py):
// objects, arrays, numbers (read with strtod, so Python's repr of a float64 comes back exact),
// strings without escapes beyond \" and \\, true/false/null. Enough for test data, not a
// general parser: malformed input throws std::runtime_error.
#pragma once

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace golden_json {

struct Value {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::map<std::string, Value> object;

  bool is_null() const { return kind == Kind::kNull; }
  bool has(const std::string& key) const { return kind == Kind::kObject && object.count(key) != 0; }
  const Value& operator[](const std::string& key) const {
    const auto found = object.find(key);
    if (kind != Kind::kObject || found == object.end()) throw std::runtime_error("golden json: no key " + key);
    return found->second;
  }
  const Value& operator[](std::size_t i) const { return array.at(i); }
  std::vector<double> numbers() const {
    std::vector<double> out;
    for (const Value& v : array) out.push_back(v.number);
    return out;
  }
};

class Reader {
 public:
  explicit Reader(std::string text) : text_(std::move(text)) {}

  Value parse() {
    Value v = value();
    skip_space();
    if (at_ != text_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("golden json: " + what + " at offset " + std::to_string(at_));
  }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool consume(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c)) fail(std::string("expected ") + c);
  }
  bool keyword(const char* word) {
    const std::string w(word);
    if (text_.compare(at_, w.size(), w) != 0) return false;
    at_ += w.size();
    return true;
  }

  std::string string_literal() {
    expect('"');
    std::string out;
    while (at_ < text_.size() && text_[at_] != '"') {
      if (text_[at_] == '\\') ++at_;
      out += text_[at_++];
    }
    expect('"');
    return out;
  }

  Value value() {
    skip_space();
    if (at_ >= text_.size()) fail("unexpected end");
    Value v;
    const char c = text_[at_];
    if (c == '{') {
      v.kind = Value::Kind::kObject;
      ++at_;
      if (consume('}')) return v;
      do {
        skip_space();
        const std::string key = string_literal();
        expect(':');
        v.object[key] = value();
      } while (consume(','));
      expect('}');
    } else if (c == '[') {
      v.kind = Value::Kind::kArray;
      ++at_;
      if (consume(']')) return v;
      do v.array.push_back(value());
      while (consume(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Value::Kind::kString;
      v.string = string_literal();
    } else if (keyword("true")) {
      v.kind = Value::Kind::kBool;
      v.boolean = true;
    } else if (keyword("false")) {
      v.kind = Value::Kind::kBool;
    } else if (keyword("null")) {
      v.kind = Value::Kind::kNull;
    } else {
      char* end = nullptr;
      v.kind = Value::Kind::kNumber;
      v.number = std::strtod(text_.c_str() + at_, &end);
      if (end == text_.c_str() + at_) fail("expected a value");
      at_ = static_cast<std::size_t>(end - text_.c_str());
    }
    return v;
  }

  std::string text_;
  std::size_t at_ = 0;
};

// tests/golden/<name>, found from this header's own path (the build runs from anywhere).
inline Value read_golden(const std::string& name) {
  std::string dir = __FILE__;
  dir = dir.substr(0, dir.find_last_of('/'));  // tests/core
  const std::string path = dir + "/../golden/" + name;
  std::ifstream file(path);
  if (!file) throw std::runtime_error("golden json: cannot open " + path);
  std::stringstream text;
  text << file.rdbuf();
  return Reader(text.str()).parse();
}

}  // namespace golden_json
