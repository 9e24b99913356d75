// Who sees what: every reader of the course's map and list sees a pin and its place name. A
// student who typed a street address or a postcode shares only their town unless they choose the
// exact place; one who typed a town has nothing more precise to hide.

/**
 * The two ways to share `candidate` (a /v1/geocode answer) for text of kind `input` typed as
 * `typed`, or null when only one makes sense. Each way is `{ mapString, latitude, longitude }`.
 */
export function privacyChoice(input, candidate, typed) {
  const town = candidate.town
    || ((input === 'street' || input === 'postcode') && candidate.accuracy === 'city'
      ? { name: candidate.name, latitude: candidate.latitude, longitude: candidate.longitude } : null);
  if (!town) return null;
  return {
    initial: input === 'street' || input === 'postcode' ? 'city' : 'exact',
    city: { mapString: town.name, latitude: town.latitude, longitude: town.longitude },
    exact: { mapString: typed, latitude: candidate.latitude, longitude: candidate.longitude },
  };
}

/** What gets posted for `candidate` when `choice` (from privacyChoice) is set to `way`. */
export function sharedPlace(candidate, typed, choice, way) {
  if (choice) return choice[way];
  return { mapString: typed, latitude: candidate.latitude, longitude: candidate.longitude };
}
