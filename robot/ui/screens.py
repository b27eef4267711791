"""The brick app's screens: 178 x 128 one-bit PIL images.

Each function returns a PIL image (mode "1", white background) whose
`info["screen"]` names it (ready, working, result, error), so a virtual brick
can save it as a PNG with a telling name. Pillow is imported lazily (the
brick has it as python3-pil; its version there is old, so only long-standing
PIL calls are used).

Layout: a black title bar (title left, cube size right), a body, and a
footer with the button hints. The net of the cube shows each facelet as a
small square filled with a pattern per face colour (U white ... D black),
since the LCD has no colours.
"""

WIDTH_PX = 178
HEIGHT_PX = 128
TITLE_H_PX = 13
FOOTER_Y_PX = 116
MARGIN_PX = 3
LINE_H_PX = 11
BAR_H_PX = 8
BAR_Y_PX = 100
PAIRING_CODE_SCALE = 2             # the pairing code, blown up from the bitmap font
PAIRING_CODE_GROUP = 3             # digits between the spaces of the code shown ("482 913")
MAX_ADDRESSES_SHOWN = 2            # the network addresses a screen lists (USB and Wi-Fi)
MAX_NAME_LINES = 2                 # a long host name is cut after this many lines
NET_AREA_PX = (90, 16, 176, 94)   # left, top, right, bottom of the net
NET_GRID = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}
FACE_ORDER = "URFDLB"
# Fill pattern per face letter (U white, D black, the others hatched).
PATTERNS = {
    "U": lambda x, y: False,
    "D": lambda x, y: True,
    "F": lambda x, y: x % 2 == 0 and y % 2 == 0,
    "L": lambda x, y: (x + y) % 2 == 0,
    "R": lambda x, y: y % 2 == 0,
    "B": lambda x, y: x % 2 == 0,
}


def _pil():
    from PIL import Image, ImageDraw, ImageFont
    return Image, ImageDraw, ImageFont


def _font():
    _, _, ImageFont = _pil()
    # The classic bitmap font, as old PIL on the brick has it (new Pillow's
    # load_default() would give a scalable font that renders differently).
    return getattr(ImageFont, "load_default_imagefont", ImageFont.load_default)()


def text_width(font, text):
    """Pixel width of `text` (old PIL: getsize; new Pillow: getbbox)."""
    if hasattr(font, "getbbox"):
        box = font.getbbox(text)
        return box[2] - box[0]
    return font.getsize(text)[0]


def _canvas(name, title, size):
    Image, ImageDraw, _ = _pil()
    image = Image.new("1", (WIDTH_PX, HEIGHT_PX), 1)
    image.info["screen"] = name
    draw = ImageDraw.Draw(image)
    font = _font()
    draw.rectangle((0, 0, WIDTH_PX - 1, TITLE_H_PX - 1), fill=0)
    draw.text((MARGIN_PX, 1), title, fill=1, font=font)
    if size:
        label = "{0}x{0}x{0}".format(size)
        draw.text((WIDTH_PX - MARGIN_PX - text_width(font, label), 1), label, fill=1, font=font)
    return image, draw, font


def _footer(draw, font, hint):
    draw.line((0, FOOTER_Y_PX - 2, WIDTH_PX - 1, FOOTER_Y_PX - 2), fill=0)
    draw.text((MARGIN_PX, FOOTER_Y_PX), hint, fill=0, font=font)


def wrap(font, text, width_px):
    """Split text into lines no wider than width_px (words kept whole when possible)."""
    lines = []
    line = ""
    for word in text.split():
        candidate = word if not line else line + " " + word
        if text_width(font, candidate) <= width_px or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
        while text_width(font, line) > width_px and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and text_width(font, line[:cut]) > width_px:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line:
        lines.append(line)
    return lines


def _lines(draw, font, lines, top, width_px=WIDTH_PX - 2 * MARGIN_PX, limit=None):
    y = top
    shown = 0
    for text in lines:
        for part in wrap(font, text, width_px):
            if limit is not None and shown >= limit:
                return y
            draw.text((MARGIN_PX, y), part, fill=0, font=font)
            y += LINE_H_PX
            shown += 1
    return y


def progress_bar(draw, box, done, total):
    """An outlined bar filled done/total of its width."""
    left, top, right, bottom = box
    draw.rectangle(box, outline=0, fill=1)
    if total > 0 and done > 0:
        fill_right = left + int((right - left) * min(1.0, float(done) / total))
        draw.rectangle((left, top, fill_right, bottom), fill=0)


def _shade(draw, box, letter):
    """Fill a facelet square: outline plus the pattern of its face colour
    (unknown: a dot in the middle)."""
    left, top, right, bottom = box
    draw.rectangle(box, outline=0, fill=1)
    pattern = PATTERNS.get(letter)
    if pattern is None:
        draw.point(((left + right) // 2, (top + bottom) // 2), fill=0)
        return
    for y in range(top + 2, bottom - 1):
        for x in range(left + 2, right - 1):
            if pattern(x, y):
                draw.point((x, y), fill=0)


def draw_net(draw, facelets, size, box=NET_AREA_PX):
    """The cube's net (faces U R F D L B in the URFDLB string) in `box`.

    `facelets`: the facelet string (letters of the face colour), or a string
    with "?" for facelets not known yet, or None for an empty net.
    """
    left, top, right, bottom = box
    face_px = min((right - left) // 4, (bottom - top) // 3)
    cell = max(2, face_px // size)
    per_face = size * size
    for index, face in enumerate(FACE_ORDER):
        gx, gy = NET_GRID[face]
        x0 = left + gx * cell * size
        y0 = top + gy * cell * size
        for k in range(per_face):
            row, col = divmod(k, size)
            letter = facelets[index * per_face + k] if facelets else "?"
            x = x0 + col * cell
            y = y0 + row * cell
            _shade(draw, (x, y, x + cell, y + cell), letter)


def ready_screen(size, last=None, cube_sensor=True, link=None):
    """Waiting for a cube: how to start, the chosen size, the last outcome.

    link: (name, addresses, port, pairing code) when the app listens on TCP;
    the screen then shows them (see pairing_screen) in place of the size hint.
    """
    image, draw, font = _canvas("ready", "cubebot: ready", size)
    if link is None:
        how = "Put a cube on the table or press ENTER." if cube_sensor else "Put a cube on, then press ENTER."
        y = _lines(draw, font, [how, "UP/DOWN: cube size."], TITLE_H_PX + 2)
    else:
        how = "Cube on the table or ENTER." if cube_sensor else "Put a cube on, press ENTER."
        y = _lines(draw, font, [how], TITLE_H_PX + 2)
        y = _link_block(image, draw, font, y, *link)
    if last:
        _lines(draw, font, ["Last: " + last], y, limit=(FOOTER_Y_PX - 2 - y) // LINE_H_PX)
    _footer(draw, font, "ENTER start  UP/DOWN size")
    return image


def working_screen(size, stage, done=0, total=0, moves=None, facelets=None):
    """A run under way: the stage, a progress bar, the move count, the net."""
    image, draw, font = _canvas("working", "cubebot: " + stage, size)
    text_w = NET_AREA_PX[0] - 2 * MARGIN_PX
    lines = []
    if total:
        lines.append("{} {}/{}".format("read" if stage == "scanning" else "done", done, total))
    if moves is not None:
        lines.append("{} moves".format(moves))
    _lines(draw, font, lines, TITLE_H_PX + 2, width_px=text_w)
    progress_bar(draw, (MARGIN_PX, BAR_Y_PX, WIDTH_PX - MARGIN_PX, BAR_Y_PX + BAR_H_PX), done, total)
    draw_net(draw, facelets, size)
    _footer(draw, font, "BACKSPACE abort")
    return image


def result_screen(size, solved, moves=None, seconds=None, facelets=None):
    """The outcome of a run."""
    image, draw, font = _canvas("result", "cubebot: solved" if solved else "cubebot: done", size)
    lines = ["Solved!" if solved else "Not solved."]
    if moves is not None:
        lines.append("{} moves".format(moves))
    if seconds is not None:
        lines.append("{:.0f} s in all".format(seconds))
    _lines(draw, font, lines, TITLE_H_PX + 2, width_px=NET_AREA_PX[0] - 2 * MARGIN_PX)
    draw_net(draw, facelets, size)
    _footer(draw, font, "ENTER again  UP/DOWN size")
    return image


def error_screen(size, message):
    """A fault: what went wrong; the app is ready again."""
    image, draw, font = _canvas("error", "cubebot: error", size)
    _lines(draw, font, [message], TITLE_H_PX + 2, limit=8)
    _footer(draw, font, "ENTER retry")
    return image


def pairing_screen(name, code, port, addresses=()):
    """The brick listens on TCP: its name, addresses, port and pairing code, large enough to read."""
    image, draw, font = _canvas("pairing", "cubebot: Wi-Fi/USB link", None)
    _link_block(image, draw, font, TITLE_H_PX + 2, name, addresses, port, code)
    _footer(draw, font, "type the code on the laptop")
    return image


def _link_block(image, draw, font, top, name, addresses, port, code):
    """What a laptop needs to reach the brick, from `top`: the brick's name, each address with
    the port (as a laptop types it) or the bare port while no network is up, and the pairing
    code, blown up. The y below it."""
    y = _lines(draw, font, ["Name: " + name], top, limit=MAX_NAME_LINES)
    shown = list(addresses)[:MAX_ADDRESSES_SHOWN]
    lines = ["IP: {}:{}".format(address, port) for address in shown]
    if not shown:
        lines.append("TCP port {} (no network)".format(port))
    y = _lines(draw, font, lines, y)
    label = "Pairing code:"
    big = _big_text(" ".join(code[i:i + PAIRING_CODE_GROUP] for i in range(0, len(code), PAIRING_CODE_GROUP)))
    row_h = big.size[1]
    draw.text((MARGIN_PX, y + (row_h - LINE_H_PX) // 2), label, fill=0, font=font)
    image.paste(big, (WIDTH_PX - MARGIN_PX - big.size[0], y))
    return y + row_h + 1


def _big_text(text, scale=PAIRING_CODE_SCALE):
    """`text` in the bitmap font, blown up `scale` times (old PIL has no big fonts)."""
    Image, ImageDraw, _ = _pil()
    font = _font()
    width = text_width(font, text) + 2
    small = Image.new("1", (width, LINE_H_PX), 1)
    ImageDraw.Draw(small).text((1, 0), text, fill=0, font=font)
    return small.resize((width * scale, LINE_H_PX * scale))
