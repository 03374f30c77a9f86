-- Benchmark data at QUALITY.md's sizes: 10,000 users, of which 1,000 creators; 500,000 follows (every member
-- follows 50 creators); 200,000 posts (200 per creator, one a minute, a mix of audiences, some paid, a quarter
-- with an image; the benchmark stores files for the newest of them, tests/bench/run.mjs). Built with recursive
-- CTEs over consecutive ids so the file stays small and loads in seconds.
-- Password hashes are placeholders: nobody signs in as these users.
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 10000)
INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, created_at, updated_at)
SELECT printf('bench_%05d', n),
       (CASE n % 7 WHEN 0 THEN 'Mia' WHEN 1 THEN 'Noah' WHEN 2 THEN 'Lena' WHEN 3 THEN 'Omar' WHEN 4 THEN 'Yuki' WHEN 5 THEN 'Ana' ELSE 'Ivan' END)
         || ' ' || (CASE n % 5 WHEN 0 THEN 'Rivers' WHEN 1 THEN 'Stone' WHEN 2 THEN 'Meyer' WHEN 3 THEN 'Costa' ELSE 'Sato' END) || ' ' || n,
       printf('bench_%05d@example.test', n), '2026-01-01T00:00:00.000Z', 'x', '1990-01-01', 'other',
       CASE WHEN n % 10 = 0 THEN 'creator' ELSE 'member' END, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
FROM seq;

-- The users above have consecutive ids: bench_n is base + n, and creator c (0..999) is bench_{10 (c + 1)}.
WITH RECURSIVE
  base(b) AS (SELECT id - 1 FROM users WHERE username = 'bench_00001'),
  fans(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM fans WHERE n < 10000),
  picks(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM picks WHERE k < 49)
INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at)
SELECT b + n, b + 10 * (1 + ((n * 7 + k * 20) % 1000)), '2026-02-01T00:00:00.000Z'
FROM base, fans, picks
WHERE b + n <> b + 10 * (1 + ((n * 7 + k * 20) % 1000));

WITH RECURSIVE
  base(b) AS (SELECT id - 1 FROM users WHERE username = 'bench_00001'),
  seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 199999)
INSERT INTO posts (user_id, text, audience, price_cents, published_at, created_at)
SELECT b + 10 * (1 + (n % 1000)), 'Bench post ' || n || (CASE n % 3 WHEN 0 THEN ' sunset' WHEN 1 THEN ' harbour' ELSE ' studio' END),
       CASE n % 5 WHEN 3 THEN 'followers' WHEN 4 THEN 'subscribers' ELSE 'everyone' END,
       CASE WHEN n % 17 = 0 THEN 499 ELSE 0 END,
       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-03-01', '+' || n || ' minutes'), '2026-03-01T00:00:00.000Z'
FROM base, seq;

INSERT INTO media (user_id, kind, status, object_key, preview_key, content_type, size_bytes, width, height, created_at)
SELECT user_id, 'image', 'ready', printf('posts/%032x.png', id), printf('previews/%032x.png', id), 'image/png', 26549, 720, 900, created_at
FROM posts WHERE id % 4 = 0 AND text LIKE 'Bench post %';
INSERT INTO post_media (post_id, media_id, position)
SELECT p.id, m.id, 0 FROM posts p JOIN media m ON m.object_key = printf('posts/%032x.png', p.id)
WHERE p.id % 4 = 0 AND p.text LIKE 'Bench post %';

ANALYZE;
