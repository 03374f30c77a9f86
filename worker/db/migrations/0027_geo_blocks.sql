-- Geo-blocking (docs/decisions/geo-blocking.md): the places where a creator's profile, posts, media, stories and
-- live streams do not exist. `place` is an ISO 3166-1 alpha-2 country ("DE") or a US state ("US-TX"), checked
-- against shared/contracts/geo-block-places.ts before it is written. Visibility probes (creator_id, place).
CREATE TABLE geo_blocks (
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  place TEXT NOT NULL,
  PRIMARY KEY (creator_id, place)
) WITHOUT ROWID;
