// Pre-made JWTs, one per line: line n is user n's token (the writer is in src/test, see README).
// A SharedArray is read once and shared read-only by all VUs, so 100,000 tokens cost their
// memory once instead of once per VU.

import { SharedArray } from 'k6/data';
import encoding from 'k6/encoding';

const HOW_TO_MAKE =
  './mvnw -q test-compile exec:java@tokens -Dtokens.count=100000 -Dtokens.out=target/tokens.txt';

// TOKENS_FILE, when set, is taken relative to the directory k6 runs in (like any CLI path);
// the default is the file beside the script's parent, so it does not depend on where k6 runs.
function tokensPath(defaultUrl) {
  const path = __ENV.TOKENS_FILE;
  if (!path) return defaultUrl;
  if (path.startsWith('/') || path.startsWith('file://') || !__ENV.PWD) return path;
  return `${__ENV.PWD}/${path}`;
}

function claims(token) {
  try {
    return JSON.parse(encoding.b64decode(token.split('.')[1], 'rawurl', 's'));
  } catch (e) {
    return {};
  }
}

function readLines(path) {
  let text;
  try {
    text = open(path);
  } catch (e) {
    throw new Error(`Cannot read the tokens file ${path} (${e}). Set TOKENS_FILE, or write it with: ${HOW_TO_MAKE}`);
  }
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) {
    throw new Error(`The tokens file ${path} has no tokens. Write it with: ${HOW_TO_MAKE}`);
  }
  return lines;
}

// Returns { tokens, expiry }: a SharedArray of the tokens, each alone in an array, and one of [earliest
// expiry, how many have expired] for setup(), worked out once while the file is read. k6 parses and
// deep-freezes an element on every read, and freezing a bare string walks each of its characters as a
// property: a quarter of k6's profile went there, and k6 spent 12 % more CPU per JWT + MySQL request.
// An array of one freezes in one step.
export function loadTokens(defaultUrl) {
  const path = tokensPath(defaultUrl);
  const tokens = new SharedArray('tokens', () => readLines(path).map((token) => [token]));
  const expiry = new SharedArray('tokens-expiry', () => {
    const now = Date.now() / 1000;
    let expired = 0;
    let first = Infinity;
    for (const token of readLines(path)) {
      const exp = claims(token).exp;
      if (exp && exp < now) expired++;
      if (exp) first = Math.min(first, exp);
    }
    return [first === Infinity ? null : first, expired];
  });
  return { tokens, expiry };
}

// A token drawn at random, as [token, the email the app must answer with]: the email is the
// token's own claim, falling back to its line's user when it has none; only a checked iteration
// (http.js) pays for decoding it.
export function randomToken({ tokens }) {
  const i = Math.floor(Math.random() * tokens.length);
  const [token] = tokens[i];
  return [token, () => claims(token).email || `user${i + 1}@example.com`];
}

// For setup(): tokens carry an expiry (a day, as written by the project's tool); a stale file
// would only show up as a run of 401s, so say so before the load starts.
export function assertTokensFresh({ tokens, expiry }) {
  const [first, expired] = [expiry[0], expiry[1]];
  if (expired > 0) {
    throw new Error(`${expired} of ${tokens.length} tokens have expired (the first at ` +
      `${new Date(first * 1000).toISOString()}). Write fresh ones with: ${HOW_TO_MAKE}`);
  }
}
