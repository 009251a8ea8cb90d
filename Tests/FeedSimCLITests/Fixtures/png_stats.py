"""Prints statistics of a PNG image as JSON, using only the standard library.

Usage: python3 png_stats.py IMAGE.png

Output: {"width": W, "height": H, "distinct_colors": N, "non_white_fraction": F}
where distinct_colors counts RGB colours (alpha ignored; counting stops
once it passes 100000) and
non_white_fraction is the share of pixels that are not pure white.
Reads 8-bit greyscale, RGB, palette, grey+alpha and RGBA images without
interlacing (what Chromium's --screenshot writes). Exits 1 with a message
on anything else.
"""

import json
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
COLOR_CAP = 100000


def fail(message):
    sys.stderr.write("png_stats: " + message + "\n")
    sys.exit(1)


def read_chunks(data):
    if not data.startswith(SIGNATURE):
        fail("not a PNG file")
    position = len(SIGNATURE)
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        yield kind, body
        if kind == b"IEND":
            return
    fail("the file ends before IEND")


def add_bytes(line, previous, low, high):
    """Bytewise (line + previous) mod 256 over whole rows at once: adds the
    low seven bits of every byte as one big integer (no carry crosses a
    byte) and puts each byte's top bit back with an exclusive or."""
    a = int.from_bytes(line, "big")
    b = int.from_bytes(previous, "big")
    total = ((a & low) + (b & low)) ^ ((a ^ b) & high)
    return bytearray(total.to_bytes(len(line), "big"))


def unfilter(raw, width, height, bpp):
    stride = width * bpp
    low = int.from_bytes(b"\x7f" * stride, "big")
    high = int.from_bytes(b"\x80" * stride, "big")
    rows = []
    previous = bytearray(stride)
    position = 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:
            line = add_bytes(line, previous, low, high)
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                if pa <= pb and pa <= pc:
                    predictor = a
                elif pb <= pc:
                    predictor = b
                else:
                    predictor = c
                line[i] = (line[i] + predictor) & 0xFF
        elif kind != 0:
            fail("unknown filter type %d" % kind)
        rows.append(bytes(line))
        previous = line
    return rows


def main():
    if len(sys.argv) != 2:
        fail("usage: png_stats.py IMAGE.png")
    with open(sys.argv[1], "rb") as handle:
        data = handle.read()
    header = None
    palette = None
    compressed = bytearray()
    for kind, body in read_chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            compressed += body
    if header is None:
        fail("no IHDR chunk")
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or color_type not in CHANNELS or interlace != 0:
        fail("unsupported PNG: bit depth %d, colour type %d, interlace %d" % (depth, color_type, interlace))
    bpp = CHANNELS[color_type]
    rows = unfilter(zlib.decompress(bytes(compressed)), width, height, bpp)

    colors = set()
    non_white = 0
    white = (255, 255, 255)
    for line in rows:
        if color_type in (2, 6):
            pixels = list(zip(line[0::bpp], line[1::bpp], line[2::bpp]))
        elif color_type == 3:
            if palette is None:
                fail("palette image without PLTE")
            pixels = [tuple(palette[3 * v:3 * v + 3]) for v in line]
        else:
            pixels = [(v, v, v) for v in line[::bpp]]
        non_white += len(pixels) - pixels.count(white)
        if len(colors) < COLOR_CAP:
            colors.update(pixels)
    print(json.dumps({
        "width": width,
        "height": height,
        "distinct_colors": len(colors),
        "non_white_fraction": round(non_white / float(width * height), 6),
    }, sort_keys=True))


if __name__ == "__main__":
    main()
