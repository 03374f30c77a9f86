-- Issue 16: a timeline page that costs about the same whether a fan follows 10 creators or 1,000.
-- following_count is kept on users (like follower_count) so the timeline can choose its way of reading a page
-- without counting; posts_recent lists every published post newest first, which the way for fans who follow many
-- creators walks (worker/domain/timeline/get-timeline.ts).
ALTER TABLE users ADD COLUMN following_count INTEGER NOT NULL DEFAULT 0 CHECK (following_count >= 0);
UPDATE users SET following_count = (SELECT COUNT(*) FROM follows f WHERE f.follower_id = users.id);

CREATE TRIGGER follows_following_insert AFTER INSERT ON follows BEGIN
  UPDATE users SET following_count = following_count + 1 WHERE id = NEW.follower_id;
END;
CREATE TRIGGER follows_following_delete AFTER DELETE ON follows BEGIN
  UPDATE users SET following_count = following_count - 1 WHERE id = OLD.follower_id;
END;

CREATE INDEX posts_recent ON posts(published_at DESC, id DESC) WHERE status = 'published';
