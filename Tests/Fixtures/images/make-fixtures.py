#!/usr/bin/env python3
"""Writes the image fixtures of the Files tests into this directory. Run it from anywhere:

    python3 Tests/Fixtures/images/make-fixtures.py

Needs Python 3 (standard library only) and the `vips` command (Debian: libvips-tools), which encodes the
JPEGs; PNG and GIF files are written here byte by byte. Every picture is made of flat coloured areas, so
the tests can tell orientation, crops and frames apart by colour and the files stay small. The output is
the same on every run with the same libvips.
"""
import os
import struct
import subprocess
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

RED, GREEN, BLUE, YELLOW, WHITE = (220, 30, 30), (30, 200, 60), (40, 60, 220), (240, 220, 40), (255, 255, 255)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


# ---- pixels ------------------------------------------------------------------------------------------

def quadrants(width, height):
    """An upright picture whose four quadrants are red (top left), green (top right), blue (bottom left)
    and yellow (bottom right): every rotation and mirror of it looks different."""
    return [[(RED if x < width // 2 else GREEN) if y < height // 2 else (BLUE if x < width // 2 else YELLOW)
             for x in range(width)] for y in range(height)]


def bands(width, height):
    """Red rows at the top quarter, green in the middle half, blue at the bottom quarter."""
    return [[RED if y < height // 4 else (GREEN if y < height * 3 // 4 else BLUE) for _ in range(width)]
            for y in range(height)]


def transpose(p):
    return [list(row) for row in zip(*p)]


def flip_h(p):
    return [row[::-1] for row in p]


def flip_v(p):
    return p[::-1]


def rotate_cw(p):
    return flip_h(transpose(p))


def rotate_ccw(p):
    return flip_v(transpose(p))


# What must be stored so that applying EXIF orientation N shows the upright picture: the inverse of
# the transformation N names (2 mirror, 3 half turn, 4 flip, 5 transpose, 6 quarter turn clockwise,
# 7 transverse, 8 quarter turn anticlockwise).
STORED_FOR_ORIENTATION = {
    1: lambda p: p,
    2: flip_h,
    3: lambda p: flip_v(flip_h(p)),
    4: flip_v,
    5: transpose,
    6: rotate_ccw,
    7: lambda p: flip_v(flip_h(transpose(p))),
    8: rotate_cw,
}


# ---- encoders ----------------------------------------------------------------------------------------

def ppm(pixels):
    height, width = len(pixels), len(pixels[0])
    body = bytes(c for row in pixels for px in row for c in px)
    return b"P6\n%d %d\n255\n" % (width, height) + body


def jpeg(pixels, quality=90):
    """Encodes through the vips command (JPEG needs a real encoder), without any metadata."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.ppm"), os.path.join(tmp, "out.jpg")
        with open(src, "wb") as f:
            f.write(ppm(pixels))
        subprocess.run(["vips", "jpegsave", src, dst, "--Q", str(quality), "--strip"], check=True)
        with open(dst, "rb") as f:
            return f.read()


def exif_tiff(orientation, little_endian=False):
    """A TIFF structure whose IFD0 holds one entry: Orientation (0x0112, SHORT, 1 value)."""
    e = "<" if little_endian else ">"
    tiff = (b"II\x2a\x00" if little_endian else b"MM\x00\x2a") + struct.pack(e + "I", 8)   # IFD0 at offset 8
    tiff += struct.pack(e + "H", 1)                                                        # one entry
    tiff += struct.pack(e + "HHIHH", 0x0112, 3, 1, orientation, 0)
    return tiff + struct.pack(e + "I", 0)                                                  # no next IFD


def with_exif_orientation(jpeg_bytes, orientation):
    """Inserts an APP1 Exif segment right after SOI. Odd orientations are written little-endian (as
    most cameras do), even ones big-endian, so both byte orders are covered."""
    payload = b"Exif\x00\x00" + exif_tiff(orientation, little_endian=orientation % 2 == 1)
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    assert jpeg_bytes[:2] == b"\xff\xd8"
    return jpeg_bytes[:2] + segment + jpeg_bytes[2:]


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(pixels, alpha=None, extra_chunks=()):
    """An 8-bit RGB (or RGBA with `alpha`) PNG."""
    height, width = len(pixels), len(pixels[0])
    rows = []
    for y, row in enumerate(pixels):
        line = bytearray([0])
        for x, px in enumerate(row):
            line += bytes(px)
            if alpha is not None:
                line.append(alpha(x, y))
        rows.append(bytes(line))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    chunks = [png_chunk(b"IHDR", ihdr)] + [png_chunk(k, d) for k, d in extra_chunks]
    chunks.append(png_chunk(b"IDAT", zlib.compress(b"".join(rows), 9)))
    chunks.append(png_chunk(b"IEND", b""))
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


def png_bilevel(width, height):
    """A 1-bit greyscale PNG, all white: large dimensions in very few bytes."""
    row = b"\x00" + b"\xff" * ((width + 7) // 8)
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(row * height, 9))
            + png_chunk(b"IEND", b""))


def lzw(indices, min_code_size):
    """GIF's variable-width LZW, packed little-endian into bytes."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    out, bit_buffer, bit_count = bytearray(), 0, 0
    code_size = min_code_size + 1

    def emit(code):
        nonlocal bit_buffer, bit_count
        bit_buffer |= code << bit_count
        bit_count += code_size
        while bit_count >= 8:
            out.append(bit_buffer & 0xFF)
            bit_buffer >>= 8
            bit_count -= 8

    table = {(i,): i for i in range(clear)}
    next_code = end + 1
    emit(clear)
    current = ()
    for index in indices:
        candidate = current + (index,)
        if candidate in table:
            current = candidate
            continue
        emit(table[current])
        if next_code < 4096:
            table[candidate] = next_code
            next_code += 1
            if next_code > (1 << code_size) and code_size < 12:
                code_size += 1
        else:
            emit(clear)
            table = {(i,): i for i in range(clear)}
            next_code, code_size = end + 1, min_code_size + 1
        current = (index,)
    if current:
        emit(table[current])
    emit(end)
    if bit_count:
        out.append(bit_buffer & 0xFF)
    return bytes(out)


def sub_blocks(data):
    return b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255] for i in range(0, len(data), 255)) + b"\x00"


def gif(width, height, frames, palette, screen=None, delay=20):
    """A GIF89a with a global palette; each frame is (left, top, width, height, palette indices), and with
    more than one frame a NETSCAPE loop extension makes it an animation."""
    screen_w, screen_h = screen or (width, height)
    size_bits = max(1, (len(palette) - 1).bit_length())
    table = b"".join(bytes(c) for c in palette) + b"\x00\x00\x00" * ((1 << size_bits) - len(palette))
    data = b"GIF89a" + struct.pack("<HHBBB", screen_w, screen_h, 0x80 | 0x70 | (size_bits - 1), 0, 0) + table
    if len(frames) > 1:
        data += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for left, top, w, h, indices in frames:
        data += b"\x21\xf9\x04" + struct.pack("<BHBB", 0x04, delay, 0, 0)
        data += b"\x2c" + struct.pack("<HHHHB", left, top, w, h, 0)
        code_size = max(2, size_bits)
        data += bytes([code_size]) + sub_blocks(lzw(indices, code_size))
    return data + b"\x3b"


def jpeg_header_only(width, height):
    """SOI, a baseline SOF0 declaring width x height with three components, then EOI: no scan at all."""
    sof = struct.pack(">BHHB", 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return b"\xff\xd8" + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xd9"


# ---- the fixtures ------------------------------------------------------------------------------------

def main():
    # orientation-N.jpg: shows an upright 80x60 quadrant picture once orientation N is applied
    # (stored 80x60 for 1-4, 60x80 for 5-8).
    upright = quadrants(80, 60)
    for orientation, stored in STORED_FOR_ORIENTATION.items():
        write("orientation-%d.jpg" % orientation, with_exif_orientation(jpeg(stored(upright)), orientation))

    # photo-800x600.jpg: the spec's example photo (quadrants, 800x600, no metadata).
    photo = jpeg(quadrants(800, 600), quality=75)
    write("photo-800x600.jpg", photo)
    # truncated.jpg: the same photo cut off in the middle of its entropy-coded data.
    write("truncated.jpg", photo[: len(photo) * 3 // 5])
    # huge-dimensions.jpg: a JPEG header declaring 65,500 x 65,500 pixels and no image data.
    write("huge-dimensions.jpg", jpeg_header_only(65500, 65500))

    # orientation-6.png: the upright 80x60 picture stored turned (60x80) with orientation 6 in an eXIf chunk.
    write("orientation-6.png", png(rotate_ccw(upright), extra_chunks=[(b"eXIf", exif_tiff(6))]))

    # quadrants.png: 64x48 RGBA, opaque quadrants with a half-transparent bottom row.
    write("quadrants.png", png(quadrants(64, 48), alpha=lambda x, y: 128 if y == 47 else 255))
    # bands.png: 60x120 portrait, red top quarter, green middle, blue bottom quarter (crop anchors).
    write("bands.png", png(bands(60, 120)))
    # wide.png: 5000x1000 bilevel PNG (clamping to 4096).
    write("wide.png", png_bilevel(5000, 1000))
    # png-named.jpg: a PNG under a JPEG name; the format comes from the bytes.
    write("png-named.jpg", png(quadrants(40, 30)))
    # corrupt.png: a sound header and a correctly checksummed IDAT whose zlib stream is garbage.
    good = png(quadrants(40, 30))
    idat_at = good.index(b"IDAT")
    length = struct.unpack(">I", good[idat_at - 4:idat_at])[0]
    garbage = bytes((i * 37 + 11) & 0xFF for i in range(length))
    write("corrupt.png", good[:idat_at] + b"IDAT" + garbage
          + struct.pack(">I", zlib.crc32(b"IDAT" + garbage) & 0xFFFFFFFF) + good[idat_at + 8 + length:])
    # bomb.png: 100,000 x 100,000 declared (10 gigapixels), a few hundred bytes on disk.
    write("bomb.png", bomb_png(100000, 100000))
    # bomb-50000.png: the checklist's 50,000 x 50,000 header.
    write("bomb-50000.png", bomb_png(50000, 50000))
    # bomb.gif: a first frame declaring 65,535 x 65,535 pixels (4.3 gigapixels) with one pixel of data.
    # GIF decoders size the canvas from the first frame when the logical screen is implausible.
    write("bomb.gif", gif(1, 1, [(0, 0, 65535, 65535, [0])], [RED, BLUE], screen=(65535, 65535)))

    # animated.gif: 40x30, two frames (red, then blue), looping.
    write("animated.gif", gif(40, 30, [(0, 0, 40, 30, [0] * 1200), (0, 0, 40, 30, [1] * 1200)], [RED, BLUE]))

    # not-an-image.pdf: a few bytes of PDF.
    write("not-an-image.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")


def bomb_png(width, height):
    """An IHDR declaring width x height RGB pixels and a tiny IDAT: the header alone is the attack."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(b"\x00" * 4096, 9))
            + png_chunk(b"IEND", b""))


if __name__ == "__main__":
    main()
