"""Looking for text on the brick's one-bit screens: the text is drawn here in the screens' own
bitmap font, cut to its ink, blown up, and searched pixel for pixel in a screen image."""


def _rows(image):
    """The image as strings of "#" (ink) and "." (paper), one per row."""
    width, height = image.size
    pixels = image.convert("1").load()
    return ["".join("#" if pixels[x, y] == 0 else "." for x in range(width)) for y in range(height)]


def ink_of(text, scale=1):
    """`text` in the bitmap font, cut to the box of its ink, `scale` times as big."""
    from PIL import Image, ImageDraw
    from cubebot.robot.ui.screens import LINE_H_PX, _font, text_width
    font = _font()
    image = Image.new("1", (text_width(font, text) + 4, LINE_H_PX + 4), 1)
    ImageDraw.Draw(image).text((2, 2), text, fill=0, font=font)
    box = Image.eval(image.convert("L"), lambda v: 255 - v).getbbox()
    ink = image.crop(box)
    return ink.resize((ink.size[0] * scale, ink.size[1] * scale), Image.NEAREST)


def shows(screen, text, scale=1):
    """True if `text` (at `scale`) is drawn somewhere on the `screen` image, exactly."""
    hay, needle = _rows(screen), _rows(ink_of(text, scale))
    for y in range(len(hay) - len(needle) + 1):
        x = hay[y].find(needle[0])
        while x >= 0:
            if all(hay[y + k][x:x + len(row)] == row for k, row in enumerate(needle)):
                return True
            x = hay[y].find(needle[0], x + 1)
    return False
