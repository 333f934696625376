// Running the real `eqsat` binary from a test: files in a temporary directory, the
// command through the shell, stdout and stderr captured.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace eqsat::testing {

using Json = nlohmann::ordered_json;

// A fresh directory under the system's temporary directory, removed at the end.
class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() / ("eqsat-cli-test-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return (path_ / name).string(); }
  // Writes `text` to the file `name` and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::filesystem::path path_;
};

struct ToolRun {
  int status = -1;  // the exit status; -1 if the tool did not exit normally
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Runs `eqsat ARGS...`, with `stdin_text` on its standard input, and with `environment`
// (shell assignments, "NAME=value ...", quoted as needed) added to its environment.
inline ToolRun run_eqsat_with(const std::string& environment, const std::vector<std::string>& args,
                              const std::string& stdin_text = "") {
  TempDir dir;
  std::string command = environment + (environment.empty() ? "" : " ") + shell_quote(EQSAT_BINARY);
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  command += " < " + shell_quote(dir.write("stdin", stdin_text)) + " > " + shell_quote(dir.path("stdout")) + " 2> " +
             shell_quote(dir.path("stderr"));
  const int raw = std::system(command.c_str());
  ToolRun run;
  run.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = dir.read("stdout");
  run.err = dir.read("stderr");
  return run;
}

// Runs `eqsat ARGS...`, with `stdin_text` on its standard input.
inline ToolRun run_eqsat(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  return run_eqsat_with("", args, stdin_text);
}

// The lines of `text` (each without its '\n'; no empty line after a final '\n').
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Each line parsed as JSON (a line that does not parse becomes a JSON string holding
// it, which then fails whatever the test expects of an object).
inline std::vector<Json> json_lines(const std::string& text) {
  std::vector<Json> objects;
  for (const std::string& line : lines_of(text)) {
    Json parsed = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    objects.push_back(parsed.is_discarded() ? Json(line) : parsed);
  }
  return objects;
}

// EXPECT_TRUE(Contains(text, part)), with both shown on failure.
inline ::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

// The member names of an object, in order.
inline std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  if (!object.is_object()) return keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

}  // namespace eqsat::testing
