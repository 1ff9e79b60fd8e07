// A RegExp where a matcher expects a string matches that string, in every matcher. Without this,
// `toMatchObject({ message: /…/ })` passed whatever the message was (a RegExp has no own keys, so it
// is a "subset" of anything): about twenty assertions checked nothing.
import { expect } from 'vitest';

expect.addEqualityTesters([
  function regexMatchesString(a: unknown, b: unknown): boolean | undefined {
    if (b instanceof RegExp && typeof a === 'string') return b.test(a);
    if (a instanceof RegExp && typeof b === 'string') return a.test(b);
    return undefined;
  },
]);
