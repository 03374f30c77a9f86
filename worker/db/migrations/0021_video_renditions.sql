-- Issue 49: video that plays on a flaky phone. The uploader's browser makes copies of a video at 360p and 720p
-- (fast-start MP4, H.264 + AAC; WebM, VP9 + Opus, where the browser cannot encode H.264) beside the original.
-- Each is uploaded in parts like the original (resumable), checked by its bytes when complete (container, codecs,
-- length, size, bitrate), and served by /media under the original's rule (worker/domain/policies/media.ts).
-- A rendition goes with its medium: the row by the foreign key, the R2 object by the commands that delete media.
CREATE TABLE media_renditions (
  media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (name IN ('360p', '720p')),
  status TEXT NOT NULL DEFAULT 'uploading' CHECK (status IN ('uploading', 'ready')),
  object_key TEXT NOT NULL UNIQUE,
  content_type TEXT NOT NULL CHECK (content_type IN ('video/mp4', 'video/webm')),
  size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),
  upload_id TEXT,
  -- Read from the file's bytes when it is complete: "avc1.42e01e,mp4a.40.2", the frame, the length.
  codecs TEXT,
  width INTEGER,
  height INTEGER,
  duration_ms INTEGER,
  created_at TEXT NOT NULL,
  PRIMARY KEY (media_id, name)
) WITHOUT ROWID;

-- The parts of a rendition received so far, as media_parts for the original.
CREATE TABLE media_rendition_parts (
  media_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  part_number INTEGER NOT NULL CHECK (part_number BETWEEN 1 AND 10000),
  etag TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  PRIMARY KEY (media_id, name, part_number),
  FOREIGN KEY (media_id, name) REFERENCES media_renditions(media_id, name) ON DELETE CASCADE
) WITHOUT ROWID;

-- The original's length, read from its bytes when it completes (null when the file does not say): renditions must
-- match it.
ALTER TABLE media ADD COLUMN duration_ms INTEGER;
-- With Cloudflare Stream (VIDEO_PIPELINE=stream): the video's id there. Stream keeps the file and its renditions;
-- R2 keeps the poster and the preview the browser made.
ALTER TABLE media ADD COLUMN stream_uid TEXT;
CREATE UNIQUE INDEX media_stream_uid ON media(stream_uid) WHERE stream_uid IS NOT NULL;
