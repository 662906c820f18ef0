import { describe, expect, it } from 'vitest';
import { keyTakenByFocus } from './use-media-element';

/** The key as the viewer's window listener gets it, from `target`. */
function keyOn(target: Element, key: string): KeyboardEvent {
  let seen: KeyboardEvent | null = null;
  const listen = (e: KeyboardEvent) => (seen = e);
  window.addEventListener('keydown', listen);
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  window.removeEventListener('keydown', listen);
  return seen!;
}

function make(html: string): Element {
  document.body.innerHTML = html;
  return document.body.firstElementChild!.querySelector('[data-at]') ?? document.body.firstElementChild!;
}

describe(keyTakenByFocus.name, () => {
  it('leaves Space and Enter to a focused button of the player or the page, and to links and tick boxes', () => {
    for (const html of [
      '<div class="media-bar"><button data-at aria-label="Mute"><svg></svg></button></div>',
      '<button><span data-at>Download</span></button>',
      '<a href="/x">Link</a>',
      '<div role="listbox"><button role="option" data-at>a.png</button></div>',
      '<input type="checkbox">',
    ]) {
      const at = make(html);
      expect(keyTakenByFocus(keyOn(at, ' ')), html).toBe(true);
      expect(keyTakenByFocus(keyOn(at, 'Enter')), html).toBe(true);
    }
  });

  it('gives Space and Enter to the player when no control has focus', () => {
    for (const html of [
      '<div class="viewer" role="dialog"><div data-at class="video-view"></div></div>',
      '<div role="grid" tabindex="0"></div>',
    ]) {
      const at = make(html);
      expect(keyTakenByFocus(keyOn(at, ' ')), html).toBe(false);
      expect(keyTakenByFocus(keyOn(at, 'Enter')), html).toBe(false);
    }
    expect(keyTakenByFocus(keyOn(document.body, ' '))).toBe(false);
  });

  it("keeps a button's other keys for the viewer: the arrows still seek", () => {
    const at = make('<button>Mute</button>');
    expect(keyTakenByFocus(keyOn(at, 'ArrowRight'))).toBe(false);
    expect(keyTakenByFocus(keyOn(make('<input type="range">'), 'ArrowRight'))).toBe(true);
  });
});
