/**
 * Offset of the first JSON syntax error in `text`, or -1 when there is none. Node 20's `JSON.parse`
 * messages do not always say where the error is; a designer editing a tree file by hand needs the
 * line and column.
 */
export function jsonErrorPosition(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, at)) at += word.length;
    else fail();
  };
  const string = () => {
    at++;
    while (at < text.length && text[at] !== '"') {
      const char = text[at]!;
      if (char < ' ') fail();
      if (char === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? 'x')) fail();
      }
      at++;
    }
    if (text[at] !== '"') fail();
    at++;
  };
  const value = () => {
    space();
    const char = text[at];
    if (char === '{') {
      at++;
      space();
      if (text[at] === '}') {
        at++;
        return;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ':') fail();
        at++;
        value();
        space();
        if (text[at] === ',') at++;
        else if (text[at] === '}') {
          at++;
          return;
        } else fail();
      }
    }
    if (char === '[') {
      at++;
      space();
      if (text[at] === ']') {
        at++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[at] === ',') at++;
        else if (text[at] === ']') {
          at++;
          return;
        } else fail();
      }
    }
    if (char === '"') {
      string();
      return;
    }
    if (char === 't') {
      literal('true');
      return;
    }
    if (char === 'f') {
      literal('false');
      return;
    }
    if (char === 'n') {
      literal('null');
      return;
    }
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!number) fail();
    at += number![0].length;
  };
  try {
    value();
    space();
    return at < text.length ? at : -1;
  } catch (position) {
    return position as number;
  }
}
