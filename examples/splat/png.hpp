// A PNG writer with no dependency: 8-bit RGB, no filtering, the zlib stream made of stored
// (uncompressed) deflate blocks. Files are as large as the pixels, which is fine for pictures of
// a few hundred pixels a side, and any PNG reader opens them.
#pragma once

#include <cstdint>
#include <vector>

// Writes width x height pixels given as RGBA8 rows, top row first, dropping alpha. Returns false
// (errno set) when the file cannot be written.
bool writePng(const char* path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba);
