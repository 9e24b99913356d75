// Folding live changes into a list of posts, newest first: pure functions, so that the list and
// the map apply a batch the same way.

const newestFirst = (a, b) => String(b.updatedAt || b.createdAt).localeCompare(String(a.updatedAt || a.createdAt))
  || String(a.objectId).localeCompare(String(b.objectId));

/**
 * Applies `changes` (in order) to `posts`: a created or updated post replaces the one with its
 * objectId (so a post already shown, such as your own just posted, is never there twice); a
 * deleted one goes. The result is newest first and at most `limit` long, never dropping the post
 * `keep` names. Returns the new list and the objectIds that left it.
 */
export function mergeChanges(posts, changes, { limit = Infinity, keep = null } = {}) {
  const byId = new Map(posts.map((post) => [post.objectId, post]));
  for (const change of changes) {
    if (change.kind === 'deleted') byId.delete(change.objectId);
    else byId.set(change.objectId, change.location);
  }
  const sorted = [...byId.values()].sort(newestFirst);
  const kept = [];
  for (const post of sorted) {
    if (kept.length < limit || post.objectId === keep) kept.push(post);
  }
  const keptIds = new Set(kept.map((post) => post.objectId));
  const removed = posts.filter((post) => !keptIds.has(post.objectId)).map((post) => post.objectId);
  return { posts: kept, removed };
}
