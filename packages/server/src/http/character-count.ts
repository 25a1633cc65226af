/**
 * The characters of `text` as a person counts them: code points, so an emoji is one (JavaScript's
 * `length` counts UTF-16 units, two for it). `maxMessageLength` and the messages that name a length
 * count this way.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        index++;
      }
    }
  }
  return count;
}
