-- The vault (docs/decisions/vault.md): a creator's content files (media of purpose 'post') are one library they
-- reuse. A file is stored once and may be used by many posts (post_media), messages (message_media) and a story.

-- The files of a post, in order. One file may be in several posts. media.post_id and media.position are no
-- longer read or written (they stay only because SQLite cannot drop a column a foreign key names); media_post
-- indexed them and goes.
CREATE TABLE post_media (
  post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
  media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 0),
  PRIMARY KEY (post_id, position)
) WITHOUT ROWID;
CREATE UNIQUE INDEX post_media_once ON post_media(post_id, media_id);
CREATE INDEX post_media_media ON post_media(media_id);
INSERT INTO post_media (post_id, media_id, position) SELECT post_id, id, position FROM media WHERE post_id IS NOT NULL;
UPDATE media SET post_id = NULL, position = 0 WHERE post_id IS NOT NULL;
DROP INDEX media_post;

-- Albums: named groups of vault files; a file may be in several.
CREATE TABLE vault_albums (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
  created_at TEXT NOT NULL
);
CREATE INDEX vault_albums_creator ON vault_albums(creator_id, id);

CREATE TABLE vault_album_items (
  album_id INTEGER NOT NULL REFERENCES vault_albums(id) ON DELETE CASCADE,
  media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  added_at TEXT NOT NULL,
  PRIMARY KEY (album_id, media_id)
) WITHOUT ROWID;
CREATE INDEX vault_album_items_media ON vault_album_items(media_id, album_id);
