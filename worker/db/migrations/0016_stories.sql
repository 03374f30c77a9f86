-- Stories: a photo or a video of up to 60 s that lives 24 hours, seen by its audience; the creator's
-- highlights keep some on the profile after that. The medium is an upload of purpose 'post' under the stories/
-- prefix (worker/domain/media/uploads.ts), owned by exactly one story.

-- A highlight: a named group of a creator's stories shown on their profile (the stories in it never expire).
CREATE TABLE story_highlights (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 30),
  created_at TEXT NOT NULL
);
CREATE INDEX story_highlights_creator ON story_highlights(creator_id, id);

CREATE TABLE stories (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  creator_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  media_id INTEGER NOT NULL UNIQUE REFERENCES media(id),
  -- The text laid over the photo or video (may be empty).
  text TEXT NOT NULL DEFAULT '' CHECK (length(text) <= 200),
  audience TEXT NOT NULL CHECK (audience IN ('everyone', 'followers', 'subscribers')),
  -- A video's length as read from its file (or as the browser measured it when the file does not say).
  duration_ms INTEGER CHECK (duration_ms IS NULL OR duration_ms BETWEEN 0 AND 60000),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  highlight_id INTEGER REFERENCES story_highlights(id) ON DELETE SET NULL,
  view_count INTEGER NOT NULL DEFAULT 0 CHECK (view_count >= 0),
  like_count INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0)
);
-- The stories bar: for each followed creator, their stories not expired yet (a range of this index per creator).
CREATE INDEX stories_creator_live ON stories(creator_id, expires_at);
-- The cron: expired stories that no highlight keeps.
CREATE INDEX stories_due ON stories(expires_at) WHERE highlight_id IS NULL;
CREATE INDEX stories_highlight ON stories(highlight_id, id) WHERE highlight_id IS NOT NULL;

-- Who saw a story (one row per viewer, however often they look) and whether they liked it.
CREATE TABLE story_views (
  story_id INTEGER NOT NULL REFERENCES stories(id) ON DELETE CASCADE,
  viewer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  viewed_at TEXT NOT NULL,
  liked INTEGER NOT NULL DEFAULT 0 CHECK (liked IN (0, 1)),
  PRIMARY KEY (story_id, viewer_id)
) WITHOUT ROWID;
-- The viewers list, newest first.
CREATE INDEX story_views_recent ON story_views(story_id, viewed_at DESC);

CREATE TRIGGER story_views_count AFTER INSERT ON story_views BEGIN
  UPDATE stories SET view_count = view_count + 1, like_count = like_count + NEW.liked WHERE id = NEW.story_id;
END;
CREATE TRIGGER story_likes_count AFTER UPDATE OF liked ON story_views WHEN NEW.liked <> OLD.liked BEGIN
  UPDATE stories SET like_count = like_count + NEW.liked - OLD.liked WHERE id = NEW.story_id;
END;
