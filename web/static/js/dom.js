// DOM: small helpers to build HTML and SVG elements.

/** SVG_NS is the namespace SVG elements must be created in. */
export const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * @param {Element} el
 * @param {Record<string, any>|null|undefined} attrs
 */
function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(/** @type {HTMLElement} */ (el).dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

/**
 * @param {Element} el
 * @param {any[]} children
 */
function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * h builds an HTML element: h('button', {class: 'x', onclick: f}, 'Text').
 * @param {string} tag
 * @param {Record<string, any>|null} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * svg builds an SVG element.
 * @param {string} tag
 * @param {Record<string, any>|null} [attrs]
 * @param {...any} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * replace sets el's children.
 * @param {Element} el
 * @param {...any} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}
