/** The icons of the sprite in `index.html` (`#i-<name>`). */
export type IconName =
  | 'agent'
  | 'warning'
  | 'error'
  | 'nomatch'
  | 'file'
  | 'image'
  | 'book'
  | 'bug'
  | 'send'
  | 'stop'
  | 'clip'
  | 'plus'
  | 'close'
  | 'route'
  | 'key'
  | 'chat'
  | 'chart';

/** An inline SVG icon from the sprite; decorative unless it has a `label`. */
export function Icon({ name, label, class: extra }: { name: IconName; label?: string; class?: string }) {
  const classes = `icon icon-${name}${extra ? ` ${extra}` : ''}`;
  if (label) {
    return (
      <svg class={classes} role="img">
        <title>{label}</title>
        <use href={`#i-${name}`} />
      </svg>
    );
  }
  return (
    <svg class={classes} aria-hidden="true">
      <use href={`#i-${name}`} />
    </svg>
  );
}
