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

// Returns a SharedArray of [token, email, exp] triples. The email is the token's own claim (the
// app looks the user up by it), falling back to the line number's user when the claim is absent.
export function loadTokens(defaultUrl) {
  const path = tokensPath(defaultUrl);
  return new SharedArray('tokens', () => {
    let text;
    try {
      text = open(path);
    } catch (e) {
      throw new Error(`Cannot read the tokens file ${path} (${e}). Set TOKENS_FILE, or write it with: ${HOW_TO_MAKE}`);
    }
    const lines = text.split('\n').map((l) => l.trim());
    const tokens = [];
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] === '') continue;
      const c = claims(lines[i]);
      tokens.push([lines[i], c.email || `user${i + 1}@example.com`, c.exp || 0]);
    }
    if (tokens.length === 0) {
      throw new Error(`The tokens file ${path} has no tokens. Write it with: ${HOW_TO_MAKE}`);
    }
    return tokens;
  });
}

// For setup(): tokens carry an expiry (a day, as written by the project's tool); a stale file
// would only show up as a run of 401s, so say so before the load starts.
export function assertTokensFresh(tokens) {
  const now = Date.now() / 1000;
  let expired = 0;
  let firstExpiry = Infinity;
  for (let i = 0; i < tokens.length; i++) {
    const exp = tokens[i][2];
    if (exp && exp < now) expired++;
    if (exp) firstExpiry = Math.min(firstExpiry, exp);
  }
  if (expired > 0) {
    throw new Error(`${expired} of ${tokens.length} tokens have expired (the first at ` +
      `${new Date(firstExpiry * 1000).toISOString()}). Write fresh ones with: ${HOW_TO_MAKE}`);
  }
}
