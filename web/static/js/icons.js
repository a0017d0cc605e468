// Icons: small inline SVG pictures, so that nothing depends on an emoji font.

import { svg } from './dom.js';

/** eyeIcon is the small "watching" eye, drawn so that it needs no emoji font. */
export function eyeIcon() {
  return svg('svg', { class: 'icon', viewBox: '0 0 24 24', 'aria-hidden': 'true' },
    svg('path', { d: 'M1.5 12S5.5 4.5 12 4.5 22.5 12 22.5 12 18.5 19.5 12 19.5 1.5 12 1.5 12Z', fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    svg('circle', { cx: 12, cy: 12, r: 3.5, fill: 'currentColor' }));
}
