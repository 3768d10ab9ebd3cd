// A main() for the fuzz targets where libFuzzer does not exist (the wasm32 builds under
// Emscripten): runs LLVMFuzzerTestOneInput once on each file named on the command line, so
// that the corpus replays on the real target, where std::size_t is 32 bits. A failed
// expectation or a sanitizer report aborts the run, like libFuzzer would.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  int replayed = 0;
  for (int i = 1; i < argc; ++i) {
    std::FILE* file = std::fopen(argv[i], "rb");
    if (file == nullptr) {
      std::fprintf(stderr, "replay: cannot open %s\n", argv[i]);
      return 2;
    }
    std::vector<std::uint8_t> bytes;
    for (int c; (c = std::fgetc(file)) != EOF;) bytes.push_back(static_cast<std::uint8_t>(c));
    std::fclose(file);
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    ++replayed;
  }
  std::printf("replay: %d inputs ok\n", replayed);
  return 0;
}
