// SPDX-License-Identifier: MIT
/* gencorpus: write a deterministic synthetic LLM-output corpus to stdout for benchmarking halluscan. */

/*
 * Usage: gencorpus [--seed N] [--size BYTES] [--spans PERCENT] [--message] [--help]
 *
 *   --seed N       PRNG seed (decimal, 0..2^64-1; default 1).  Same seed and
 *                  options give byte-identical output on every machine: the
 *                  generator uses its own xoshiro256** PRNG and integer math only.
 *   --size BYTES   exact output size; suffixes K, M, G are powers of 1024
 *                  (default 64M).  The last piece is truncated, so the final
 *                  line (or a tool span) may be cut.
 *   --spans P      about P percent (0..90, default 0) of the output bytes fall
 *                  inside tool spans, counted from the '<' of the open tag to
 *                  the newline after the close tag.  Spans alternate between
 *                  <tool_output> and <tool_result>; they are never nested and
 *                  hold search results, JSON API responses, shell sessions and
 *                  fetched web pages, densely packed with all four signal
 *                  kinds.  About 15% of spans are "compact" (tags and content
 *                  on one line).
 *   --message      write exactly one assistant message (one answer, 4000..4200
 *                  bytes, ending with a newline) instead of a corpus; --size
 *                  and --spans are ignored.
 *
 * Agent text (everything outside spans) is markdown prose on six topics
 * (databases, web frameworks, ML, health, finance, cloud): paragraphs, bullet
 * and numbered lists, ## headings, inline code, fenced code blocks and
 * occasional tables.  Signals are scheduled by agent-text byte offset, so the
 * long-run rates per 10 KiB of agent text are: 1 URL (https://docs.*, github,
 * arxiv, blog, www shapes), 1 decimal percentage ("73.4%", ~15% as "12.5 %"),
 * 0.5 decimal multiplier ("2.7x faster"), 0.5 author citation ("Smith et al.
 * (2023)", "A 2024 study by Johnson and Chen", "Dr. Patel") and 0.3
 * future-certainty claim ("will definitely ... by March 2027", "is guaranteed
 * to", "will certainly").  About 20% of other sentences are near-misses that
 * must not be flagged: round percentages ("about 70%"), hedged predictions
 * ("may be released in 2027", "will likely", "is not guaranteed to"),
 * lowercase attributions ("according to the documentation"), past events,
 * version numbers ("v2.3.1"), integer multipliers ("3x"), decimals with units
 * ("12.5 ms") and plain integers.  About 1% of sentences carry non-ASCII UTF-8
 * (accents, smart quotes, em dashes, emoji, CJK).
 *
 * Exit status: 0 on success, 1 on write error (SIGPIPE is ignored, so a
 * closed pipe is reported as EPIPE), 2 on bad usage.
 */

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

enum {
	OUT_BUF_SIZE = 1 << 20,
	BLOCK_CAP = 256 * 1024,
	SENTENCE_CAP = 2048,
	MSG_MIN = 4000,
	MSG_MAX = 4200,
};

/* ------------------------------------------------------------------ PRNG */

typedef struct {
	uint64_t s[4];
} Rng;

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** */
static uint64_t rng_next(Rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform-ish integer in [0, n), n < 2^32 (multiply-shift, no division). */
static uint32_t rng_below(Rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static uint32_t rng_range(Rng *r, uint32_t lo, uint32_t hi)
{
	return lo + rng_below(r, hi - lo + 1);
}

static int rng_chance(Rng *r, uint32_t per_mille)
{
	return rng_below(r, 1000) < per_mille;
}

/* ------------------------------------------------------- bounded buffers */

typedef struct {
	char *p;
	size_t n, cap;
} Buf;

static void put_n(Buf *b, const char *s, size_t n)
{
	size_t room = b->cap - b->n;
	if (n > room)
		n = room;
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void put(Buf *b, const char *s)
{
	put_n(b, s, strlen(s));
}

static void put_c(Buf *b, char c)
{
	if (b->n < b->cap)
		b->p[b->n++] = c;
}

static void put_u(Buf *b, uint64_t v)
{
	char t[24];
	int i = 0;
	do {
		t[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		put_c(b, t[--i]);
}

static void put_u_width(Buf *b, uint64_t v, int width)
{
	uint64_t lim = 1;
	for (int i = 1; i < width; i++) {
		lim *= 10;
		if (v < lim)
			put_c(b, '0');
	}
	put_u(b, v);
}

static void put_u_commas(Buf *b, uint64_t v)
{
	if (v >= 1000) {
		put_u_commas(b, v / 1000);
		put_c(b, ',');
		put_u_width(b, v % 1000, 3);
	} else {
		put_u(b, v);
	}
}

static void put_hex(Buf *b, Rng *r, int digits)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t x = rng_next(r);
	for (int i = 0; i < digits; i++) {
		if (i == 16)
			x = rng_next(r);
		put_c(b, hex[x & 15]);
		x >>= 4;
	}
}

static void cap_first(Buf *b)
{
	if (b->n && b->p[0] >= 'a' && b->p[0] <= 'z')
		b->p[0] = (char)(b->p[0] - 'a' + 'A');
}

/* ------------------------------------------------------------ word tables */

typedef struct {
	const char *const *v;
	uint32_t n;
} List;

#define LIST(a) { a, (uint32_t)NELEM(a) }

typedef struct {
	const char *name;
	List nouns, tools, actions, metrics, code, contexts, headings;
} Topic;

static const char *const db_nouns[] = {
	"connection pooling", "a covering index", "the query planner",
	"write-ahead logging", "table partitioning", "the buffer cache",
	"replication lag", "a composite index", "vacuum scheduling",
	"schema migration", "the isolation level", "read replica routing",
	"a materialized view", "row-level locking", "query parameterization",
	"the autovacuum configuration",
};
static const char *const db_tools[] = {
	"PostgreSQL", "MySQL", "SQLite", "Redis", "MongoDB", "ClickHouse",
	"DuckDB", "Cassandra", "CockroachDB",
};
static const char *const db_actions[] = {
	"reduce lock contention", "speed up range scans",
	"keep replication lag low", "avoid full table scans",
	"tune the connection pool", "batch small writes", "shrink index bloat",
	"isolate analytical queries", "cap long-running transactions",
	"partition large tables by date", "monitor slow queries",
	"plan schema migrations carefully",
};
static const char *const db_metrics[] = {
	"query latency", "write throughput", "the cache hit ratio",
	"replication lag", "p99 latency", "index size", "lock wait time",
	"disk usage",
};
static const char *const db_code[] = {
	"EXPLAIN ANALYZE", "pg_stat_statements", "work_mem", "shared_buffers",
	"max_connections", "VACUUM (ANALYZE)", "innodb_buffer_pool_size",
	"CREATE INDEX CONCURRENTLY", "statement_timeout", "maxmemory-policy",
};
static const char *const db_contexts[] = {
	"under heavy write load", "for analytical workloads", "on large tables",
	"in production", "during peak traffic", "with many concurrent clients",
	"on managed database services", "after a major version upgrade",
};
static const char *const db_headings[] = {
	"Choosing an indexing strategy", "Connection pooling basics",
	"Diagnosing slow queries", "Replication and failover",
	"Partitioning large tables", "Schema migrations without downtime",
};

static const char *const web_nouns[] = {
	"server-side rendering", "the request validation layer",
	"a reverse proxy", "session management", "the middleware stack",
	"HTTP caching", "rate limiting", "the ORM layer",
	"a background job queue", "static asset bundling",
	"cross-origin resource sharing", "dependency injection",
	"the routing table", "structured logging",
};
static const char *const web_tools[] = {
	"Django", "FastAPI", "Express", "Next.js", "Rails", "Flask",
	"Spring Boot", "Laravel", "Nginx", "Phoenix",
};
static const char *const web_actions[] = {
	"add request validation", "cache rendered pages",
	"move slow work to a background queue", "enable HTTP/2",
	"paginate large responses", "compress static assets",
	"add rate limiting to public endpoints",
	"split the app into smaller modules", "set sensible timeouts",
	"pin dependency versions", "add structured logging",
	"serve assets from a CDN",
};
static const char *const web_metrics[] = {
	"time to first byte", "request latency", "the error rate",
	"bundle size", "throughput per worker", "memory per process",
	"cold start time",
};
static const char *const web_code[] = {
	"async def", "middleware", "Cache-Control", "gunicorn --workers",
	"select_related", "useEffect", "app.use()", "@Transactional",
	"X-Request-ID", "keepalive_timeout",
};
static const char *const web_contexts[] = {
	"for public APIs", "behind a load balancer", "on serverless platforms",
	"for content-heavy sites", "in a monorepo", "with many concurrent users",
	"during deploys", "in development",
};
static const char *const web_headings[] = {
	"Structuring the application", "Caching strategies",
	"Handling background work", "Securing public endpoints",
	"Deploying behind a proxy", "Improving page load time",
};

static const char *const ml_nouns[] = {
	"the learning rate schedule", "data augmentation", "early stopping",
	"feature scaling", "a held-out validation set", "gradient clipping",
	"class imbalance", "mixed-precision training", "the tokenizer",
	"hyperparameter search", "model distillation", "cross-validation",
	"label noise", "the embedding dimension",
};
static const char *const ml_tools[] = {
	"PyTorch", "TensorFlow", "scikit-learn", "XGBoost", "JAX",
	"Hugging Face Transformers", "LightGBM", "Keras", "MLflow",
	"Weights & Biases",
};
static const char *const ml_actions[] = {
	"tune the learning rate", "balance the training data",
	"track experiments", "freeze the lower layers",
	"normalize input features", "use a proper validation split",
	"reduce overfitting", "quantize the model", "profile the data loader",
	"shuffle the training set every epoch", "monitor for data drift",
	"fine-tune on domain data",
};
static const char *const ml_metrics[] = {
	"validation loss", "the F1 score", "training time", "GPU memory usage",
	"inference latency", "calibration error",
	"recall on the minority class", "AUC",
};
static const char *const ml_code[] = {
	"model.eval()", "torch.no_grad()", "train_test_split", "StandardScaler",
	"fit_transform", "DataLoader(num_workers=4)", "torch.compile",
	"early_stopping_rounds", "class_weight", "grad_accum_steps",
};
static const char *const ml_contexts[] = {
	"on small datasets", "for tabular data", "on a single GPU",
	"in production inference", "with noisy labels", "during fine-tuning",
	"for long sequences", "across multiple runs",
};
static const char *const ml_headings[] = {
	"Setting up the training loop", "Avoiding overfitting",
	"Evaluating the model", "Hyperparameter tuning", "Serving the model",
	"Handling imbalanced data",
};

static const char *const health_nouns[] = {
	"a consistent sleep schedule", "regular aerobic exercise",
	"resistance training", "dietary fiber intake", "hydration",
	"stress management", "a balanced breakfast", "daily step count",
	"screen time before bed", "caffeine timing", "strength training",
	"mindfulness practice", "protein intake", "a regular check-up",
};
static const char *const health_tools[] = {
	"Fitbit", "Apple Health", "Garmin Connect", "MyFitnessPal", "Oura",
	"Strava", "Headspace", "Google Fit",
};
static const char *const health_actions[] = {
	"improve sleep quality", "lower resting heart rate",
	"build a sustainable routine", "track progress over several weeks",
	"increase daily activity gradually", "cut back on late caffeine",
	"talk to a doctor before major changes", "schedule regular breaks",
	"stay hydrated during workouts", "set realistic goals",
};
static const char *const health_metrics[] = {
	"resting heart rate", "sleep duration", "blood pressure",
	"energy levels", "heart rate variability", "recovery time",
	"body weight", "VO2 max",
};
static const char *const health_code[] = {
	"steps_per_day", "resting_hr", "sleep_efficiency", "hrv_rmssd",
	"Observation.valueQuantity", "calories_in", "workout_minutes",
	"bp_systolic",
};
static const char *const health_contexts[] = {
	"for most adults", "over several weeks", "for people with desk jobs",
	"during recovery", "in older adults", "at the start of a new routine",
	"on rest days", "for shift workers",
};
static const char *const health_headings[] = {
	"Building a routine", "Sleep and recovery", "Tracking your progress",
	"Nutrition basics", "When to see a professional", "Staying consistent",
};

static const char *const fin_nouns[] = {
	"an emergency fund", "dollar-cost averaging", "the expense ratio",
	"asset allocation", "portfolio rebalancing", "a budget spreadsheet",
	"tax-loss harvesting", "an index fund", "compound interest",
	"cash flow forecasting", "the debt-to-income ratio",
	"a high-yield savings account", "invoice reconciliation",
	"currency risk",
};
static const char *const fin_tools[] = {
	"Vanguard", "Fidelity", "Schwab", "QuickBooks", "Excel", "Stripe",
	"Plaid", "YNAB", "Xero",
};
static const char *const fin_actions[] = {
	"rebalance once a year", "diversify across asset classes",
	"keep fees low", "automate monthly contributions",
	"build a cash buffer", "track spending by category",
	"pay down high-interest debt first", "reconcile accounts every month",
	"separate business and personal expenses",
	"review insurance coverage",
};
static const char *const fin_metrics[] = {
	"annualized return", "volatility", "the Sharpe ratio", "net worth",
	"monthly burn rate", "the savings rate", "maximum drawdown",
	"gross margin",
};
static const char *const fin_code[] = {
	"XIRR", "pct_change()", "resample", "SUMIFS", "cumprod()", "PMT",
	"rolling(252)", "np.log1p", "pivot_table",
};
static const char *const fin_contexts[] = {
	"over a long time horizon", "for small businesses",
	"in volatile markets", "for early-career investors", "at tax time",
	"during a downturn", "for freelancers", "in retirement accounts",
};
static const char *const fin_headings[] = {
	"Building an emergency fund", "Choosing an asset allocation",
	"Keeping fees low", "Tracking cash flow", "Rebalancing your portfolio",
	"Planning for taxes",
};

static const char *const cloud_nouns[] = {
	"infrastructure as code", "autoscaling", "a multi-region setup",
	"the IAM policy", "container orchestration", "a service mesh",
	"spot capacity", "the CI/CD pipeline", "blue-green deployment",
	"centralized logging", "cost allocation tagging", "secret management",
	"a managed Kubernetes cluster", "object storage lifecycle management",
};
static const char *const cloud_tools[] = {
	"Kubernetes", "Terraform", "AWS Lambda", "Amazon S3",
	"Google Cloud Run", "Azure Functions", "Docker", "Helm", "Pulumi",
	"Prometheus",
};
static const char *const cloud_actions[] = {
	"tag resources for cost tracking", "enable autoscaling",
	"use least-privilege IAM roles", "store secrets in a vault",
	"set resource requests and limits", "roll out changes gradually",
	"keep images small", "pin provider versions", "automate backups",
	"alert on error budgets", "separate staging and production accounts",
};
static const char *const cloud_metrics[] = {
	"monthly cloud spend", "deployment frequency", "mean time to recovery",
	"CPU utilization", "cold start latency", "availability",
	"egress costs", "pod startup time",
};
static const char *const cloud_code[] = {
	"kubectl rollout undo", "terraform plan", "resources.limits",
	"HorizontalPodAutoscaler", "helm upgrade --install", "aws s3 sync",
	"docker buildx", "livenessProbe", "maxSurge",
};
static const char *const cloud_contexts[] = {
	"across multiple accounts", "for bursty workloads",
	"in regulated environments", "at scale", "for small teams",
	"during incidents", "in staging", "for stateful services",
};
static const char *const cloud_headings[] = {
	"Designing for failure", "Controlling cloud costs", "Setting up CI/CD",
	"Managing secrets", "Scaling workloads", "Observability basics",
};

static const Topic topics[] = {
	{ "databases", LIST(db_nouns), LIST(db_tools), LIST(db_actions),
	  LIST(db_metrics), LIST(db_code), LIST(db_contexts), LIST(db_headings) },
	{ "web development", LIST(web_nouns), LIST(web_tools), LIST(web_actions),
	  LIST(web_metrics), LIST(web_code), LIST(web_contexts), LIST(web_headings) },
	{ "machine learning", LIST(ml_nouns), LIST(ml_tools), LIST(ml_actions),
	  LIST(ml_metrics), LIST(ml_code), LIST(ml_contexts), LIST(ml_headings) },
	{ "health and fitness", LIST(health_nouns), LIST(health_tools),
	  LIST(health_actions), LIST(health_metrics), LIST(health_code),
	  LIST(health_contexts), LIST(health_headings) },
	{ "personal finance", LIST(fin_nouns), LIST(fin_tools), LIST(fin_actions),
	  LIST(fin_metrics), LIST(fin_code), LIST(fin_contexts), LIST(fin_headings) },
	{ "cloud infrastructure", LIST(cloud_nouns), LIST(cloud_tools),
	  LIST(cloud_actions), LIST(cloud_metrics), LIST(cloud_code),
	  LIST(cloud_contexts), LIST(cloud_headings) },
};

static const char *const openers[] = {
	"In practice,", "For most teams,", "As a rule of thumb,", "That said,",
	"In general,", "Typically,", "On the other hand,", "In many setups,",
	"Realistically,", "From an operational point of view,",
	"For a first version,", "Over time,",
};
static const char *const hedges[] = {
	"usually", "often", "typically", "generally", "in many cases",
	"sometimes", "reliably", "noticeably",
};
static const char *const adjectives[] = {
	"easy", "hard", "tricky", "surprisingly subtle", "straightforward",
	"deceptively simple", "error-prone",
};
static const char *const populations[] = {
	"teams", "respondents", "production deployments", "developers",
	"small businesses", "users", "organizations", "practitioners",
};
static const char *const surnames[] = {
	"Smith", "Johnson", "Chen", "Patel", "Garcia", "Nguyen", "Kim",
	"Williams", "Brown", "Martinez", "Lee", "Anderson", "Kowalski",
	"Tanaka", "Rossi", "Schmidt", "Okafor", "Silva", "Cohen", "Ivanova",
};
static const char *const months[] = {
	"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December",
};
static const char *const month_abbr[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
	"Nov", "Dec",
};
static const char *const generic_headings[] = {
	"Summary", "Recommended approach", "Common pitfalls", "Next steps",
	"Example", "Trade-offs", "Quick checklist", "How it works",
	"Monitoring", "Getting started",
};
static const char *const bold_keys[] = {
	"Performance", "Cost", "Security", "Setup", "Monitoring", "Testing",
	"Rollout", "Maintenance", "Pros", "Cons", "Risk", "Scope",
};
static const char *const idents[] = {
	"orders", "events", "users", "metrics", "invoices", "sessions",
	"payments", "readings", "jobs", "documents", "accounts", "samples",
};
static const char *const round_ints[] = {
	"10", "50", "100", "128", "200", "250", "256", "500", "1000", "2000",
};

/* URL parts */
static const char *const url_vendors[] = {
	"example", "acme", "dataforge", "cloudly", "pgtools", "fastkit",
	"mlhub", "finlytics", "healthbase", "stackwise",
};
static const char *const url_sections[] = {
	"guide", "reference", "docs", "tutorials", "api", "concepts", "howto",
};
static const char *const url_pages[] = {
	"setup", "configuration", "getting-started", "indexing", "deployment",
	"scaling", "authentication", "performance-tuning", "migration",
	"best-practices", "monitoring", "faq",
};
static const char *const url_orgs[] = {
	"acme-labs", "openml", "dataforge", "example-org", "fastkit-dev",
	"cloudly-io", "pgtools", "vitals-project",
};
static const char *const url_repos[] = {
	"query-planner", "model-zoo", "infra-templates", "fastkit", "pg-tune",
	"ledger-tools", "vitals-sdk", "rate-limiter", "feature-store",
};
static const char *const url_slugs[] = {
	"scaling-postgres-to-millions-of-rows", "why-we-moved-to-kubernetes",
	"lessons-from-a-year-of-fine-tuning", "cutting-our-cloud-bill",
	"the-hidden-cost-of-microservices", "sleep-tracking-done-right",
	"index-funds-explained", "zero-downtime-migrations",
	"caching-at-the-edge", "debugging-slow-training-runs",
};
static const char *const url_sites[] = {
	"wikipedia", "python", "postgresql", "kubernetes", "mozilla", "who",
	"investopedia", "mayoclinic",
};

/* ------------------------------------------------------------- templates */
/*
 * Template slots: $n noun, $a action, $t tool, $T other tool, $m metric,
 * $c context, $k `inline code`, $o opener, $h hedge, $j adjective,
 * $M other metric, $g population, $q topic name, $H heading, $C claim,
 * $z identifier ($Z repeats the last one),
 * $u URL, $p decimal percentage, $x decimal multiplier, $P round
 * percentage, $K integer multiplier, $s/$S surnames, $y past year,
 * $Y future year, $F future month and year, $v version, $i small integer,
 * $I large integer, $r round integer, $d decimal, $$ literal dollar.
 */

static const char *const plain_tpl[] = {
	"$o $n $h helps $a $c.",
	"If you need to $a, start with $n and measure $m before and after.",
	"$t handles $n reasonably well, but you should still $a $c.",
	"The main trade-off is between $m and $M, so decide which one matters more for your workload.",
	"Use $k to $a; it is the quickest way to see what is going on.",
	"A common mistake is to overlook $n, which can hurt $m $c.",
	"Both $t and $T support $n, although their defaults differ in important ways.",
	"Before changing $n, capture a baseline for $m so you can compare the results.",
	"This approach $h improves $m without adding much operational complexity.",
	"You can $a by adjusting $k, but test the change $c first.",
	"Keep in mind that $n is $j to get right $c.",
	"In short, it is worth the effort to $a when $m matters.",
	"$o the simplest option is to $a and revisit the design later.",
	"$n matters most $c, where small mistakes compound quickly.",
	"Start small: $a, confirm that $m moves in the right direction, and then iterate.",
	"$t exposes this through $k, which keeps the configuration in one place.",
	"Document how you $a so the rest of the team can reproduce it.",
	"There is no universal answer here, because $m depends heavily on $n.",
	"It also helps to $a, since that reduces the risk of surprises $c.",
	"If $m is already acceptable, there is little reason to change $n.",
	"$o $t is a sensible default, and $T is worth a look if you need more control.",
	"Watch $m closely during the first week after the rollout.",
	"Most problems with $n show up $c, not in local testing.",
	"Automating this step makes it much easier to $a consistently.",
	"The documentation for $t covers $n in detail, including a few edge cases.",
	"Pair this with $n so that you can $a without extra tooling.",
	"$o avoid tuning $k until you have evidence that it is the bottleneck.",
	"When in doubt, $a and keep the change small enough to roll back.",
	"This is where $n really pays off, especially $c.",
	"One practical pattern is to $a first and only then revisit $n.",
	"Teams that $a tend to spend less time firefighting later.",
	"$n and $n interact, so change one at a time and observe $m.",
	"$o you do not need $t for this; a plain script that calls $k is often enough.",
	"The goal is not perfection but a setup where $m stays predictable $c.",
	"Treat $n as part of the design rather than an afterthought.",
	"It is tempting to skip $n, but that usually backfires $c.",
	"$t and $T take different approaches here, and neither is strictly better.",
	"Write down what you expect to happen to $m before you $a.",
	"If $t feels like overkill, $T covers the common cases with less setup.",
	"Revisit $n whenever $m starts to drift, not only after incidents.",
	"A short checklist for $n saves a surprising amount of time $c.",
	"The failure mode to watch for is $n silently degrading $m.",
	"It rarely makes sense to $a and change $n in the same step.",
	"Ask yourself whether $m or simplicity matters more before you commit to $t.",
	"Once you $a, the remaining work is mostly routine.",
	"$n is less about tooling and more about habits, so keep it simple.",
	"For smaller projects, $t on its own is usually enough.",
	"Measure $m over a realistic period; a single run can be misleading.",
	"If you only do one thing, $a.",
	"$o the defaults in $t are conservative, which is a reasonable place to start.",
	"Expect some trial and error with $n, especially $c.",
	"Keep $k under version control so changes are reviewable.",
	"Most of the benefit comes from the first few changes, so do not over-engineer $n.",
	"Whatever you choose, make sure you can explain why $m changed.",
};

static const char *const near_tpl[] = {
	"About $P of the effort usually goes into $n, so plan for it.",
	"In my experience, roughly $P of issues with $t trace back to $n.",
	"$t $v may be released in $Y with better support for $n.",
	"A new major version of $t could arrive in $Y, but the roadmap is not final.",
	"According to the documentation, $n should be reviewed $c.",
	"The default changed in $t $v, according to the official docs.",
	"As described in the release notes, $t $v was released in $y and changed how $n works.",
	"$t was first released in $y, and the ecosystem around it has matured since.",
	"Upgrade to $t $v or later if you rely on $k.",
	"On a machine with $i GB of RAM, a batch of $I records takes around $d seconds.",
	"Run at least $i replicas and keep about $P headroom for spikes.",
	"In the best case $m can improve by $K or more, but results vary a lot.",
	"$t will likely $a in a future release, though nothing is confirmed.",
	"It is not guaranteed to $a, so keep a fallback path.",
	"As reported in the changelog, the $k option was deprecated in $y.",
	"Latency at the 99th percentile went from $I ms to about half of that after the change.",
	"Around $P of the time, the defaults are fine.",
	"Set the timeout to $r ms and the retry limit to $i.",
	"In $y, $t added native support for $n.",
	"Some surveys suggest that most $g use $t, but the numbers vary widely.",
	"According to the maintainers, $t should stay backward compatible at least until $Y.",
	"A value of 0.$i for $k is a reasonable starting point.",
	"It might be supported by $Y, but plan as if it will not be.",
	"Version $v fixed a memory leak related to $n.",
	"The service listens on port 8080 by default and exposes metrics on port 9090.",
	"A mid-size deployment typically handles $I requests per minute on $i nodes.",
	"As the $t docs put it, prefer explicit configuration over clever defaults.",
	"Nearly $P of $g we talked to had not tried $n yet.",
	"The median was $d ms in a quick local test, with a long tail above that.",
	"Plan for $i to $r hours of work if you also need to $a.",
};

static const char *const url_tpl[] = {
	"See $u for the full list of configuration options.",
	"The official guide at $u walks through $n step by step.",
	"There is a good write-up on how to $a at $u.",
	"For a deeper dive, check [the $q guide]($u).",
	"The reference implementation lives at $u, and it is a good template for $n.",
	"$t documents this at $u, including how to $a.",
	"I'd start with the examples in $u before you $a.",
};
static const char *const pct_tpl[] = {
	"In one benchmark, $m improved by $p after switching to $n.",
	"Roughly $p of $g report problems with $n $c.",
	"$t reduced $m by $p in a side-by-side comparison.",
	"That works out to a $p reduction in $m.",
	"Enabling $k cut $m by $p on a typical workload.",
	"Adoption of $t is estimated at $p among $g.",
	"After the change, $m dropped by $p $c.",
};
static const char *const mult_tpl[] = {
	"$t is about $x faster than $T for this kind of workload.",
	"Switching to $n gave a $x speedup in $m.",
	"With $k enabled, throughput was $x higher $c.",
	"$t used $x less memory than $T in the same test.",
	"Batching the work made the whole pipeline $x faster.",
};
static const char *const cite_tpl[] = {
	"According to $s et al. ($y), $C.",
	"A $y study by $s and $S found that $C.",
	"As reported by Dr. $s, $C.",
	"$s and $S ($y) showed that $C.",
	"Research by $s et al. suggests that $C.",
	"$s et al. ($y) concluded that $C.",
};
static const char *const claim_tpl[] = {
	"$n can $a $c",
	"$n $h improves $m",
	"teams that $a see fewer incidents $c",
	"$m depends more on $n than most people expect",
	"$n has a measurable effect on $m",
};
static const char *const future_tpl[] = {
	"$t will definitely ship native support for $n by $F.",
	"$t $v is guaranteed to $a $c.",
	"This approach is guaranteed to $a, no matter how the workload changes.",
	"The next major release of $t will definitely make it easier to $a.",
	"By $Y, $n will certainly become the default for most $g.",
};

static const char *const utf8_tpl[] = {
	"A na\xc3\xafve approach to $n works at first, but it rarely survives contact with production.",
	"Think of $n as a \xe2\x80\x9cgood enough\xe2\x80\x9d default rather than a hard rule.",
	"$t handles this well \xe2\x80\x94 especially $c.",
	"Quick win \xf0\x9f\x9a\x80: $a before touching anything else.",
	"The fa\xc3\xa7" "ade pattern keeps $n isolated from the rest of the code.",
	"Localized guides (\xe4\xb8\xad\xe6\x96\x87, \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e) use the same terminology for $n, which helps when searching.",
	"Once $m looks stable \xe2\x9c\x85, move on to $n.",
	"R\xc3\xa9sum\xc3\xa9-style bullet points work poorly for design docs \xe2\x80\x94 explain why you $a.",
	"Teams in Z\xc3\xbcrich and S\xc3\xa3o Paulo describe the same pattern with $n.",
	"Expect $m to go from \xe2\x80\x9cnoisy\xe2\x80\x9d to \xe2\x80\x9c" "boring\xe2\x80\x9d once you $a \xe2\x86\x92 that is the goal.",
};

static const char *const intro_tpl[] = {
	"Here is an overview of $n and how it affects $m.",
	"Good question: $n is one of the more confusing parts of working with $q.",
	"Short answer: it depends on $m, but for most setups you should $a.",
	"Let's walk through how to $a with $t.",
	"There are a few ways to $a, and the right one depends on $n.",
	"Sure! Below is a practical approach to $n, with an example.",
	"The best approach depends on your constraints, so let me outline the options for $n.",
	"Great question. Getting $n right makes a big difference to $m.",
	"You are on the right track; the missing piece is usually $n.",
	"This comes up a lot with $t, so here is how I would approach it.",
	"Happy to help. The short version is that you should $a first.",
};
static const char *const closing_tpl[] = {
	"Let me know if you want a deeper dive into $n.",
	"If you share more about your setup, I can suggest specific values for $k.",
	"Hope this helps, and feel free to ask follow-up questions about $t.",
	"In summary: $a, measure $m, and iterate.",
	"If anything is unclear, I can put together a complete example.",
	"Happy to help you compare $t and $T in more detail if that is useful.",
};
static const char *const code_lead_tpl[] = {
	"Here is a minimal example:", "For example:",
	"Something like this should work:", "A small sketch of the idea:",
	"You can start from this snippet:",
};
static const char *const list_lead_tpl[] = {
	"The main options are:", "A few things to check:", "Key points:",
	"In order of impact:", "Here is what I would do:",
	"Things to watch out for $c:",
};
static const char *const table_lead_tpl[] = {
	"Here is a rough comparison:", "A quick side-by-side:",
	"The options compare roughly like this:",
};
static const char *const effort[] = { "low", "medium", "high" };

typedef struct {
	const char *lang;
	const char *body;
} CodeTpl;

static const CodeTpl code_tpls[] = {
	{ "python",
	  "import random\nimport time\n\n\n"
	  "def call_with_retry(fn, attempts=$i, base_delay=0.$i):\n"
	  "    \"\"\"Call fn, retrying with exponential backoff and jitter.\"\"\"\n"
	  "    for attempt in range(attempts):\n"
	  "        try:\n"
	  "            return fn()\n"
	  "        except TimeoutError:\n"
	  "            if attempt == attempts - 1:\n"
	  "                raise\n"
	  "            delay = base_delay * (2 ** attempt) + random.random() / 10\n"
	  "            time.sleep(delay)\n" },
	{ "python",
	  "import pandas as pd\n\n"
	  "df = pd.read_csv(\"$z.csv\", parse_dates=[\"created_at\"])\n"
	  "summary = (\n"
	  "    df.groupby(\"category\")\n"
	  "      .agg(count=(\"id\", \"size\"), mean_value=(\"value\", \"mean\"))\n"
	  "      .sort_values(\"count\", ascending=False)\n"
	  ")\n"
	  "print(summary.head($i))\n" },
	{ "python",
	  "from sklearn.ensemble import RandomForestClassifier\n"
	  "from sklearn.metrics import classification_report\n"
	  "from sklearn.model_selection import train_test_split\n\n"
	  "X_train, X_test, y_train, y_test = train_test_split(\n"
	  "    X, y, test_size=0.2, random_state=$i\n"
	  ")\n"
	  "model = RandomForestClassifier(n_estimators=$r, max_depth=$i, n_jobs=-1)\n"
	  "model.fit(X_train, y_train)\n"
	  "print(classification_report(y_test, model.predict(X_test)))\n" },
	{ "python",
	  "from fastapi import FastAPI, HTTPException\n\n"
	  "app = FastAPI()\n\n\n"
	  "@app.get(\"/$z/{item_id}\")\n"
	  "async def read_item(item_id: int):\n"
	  "    item = await repository.get(item_id)\n"
	  "    if item is None:\n"
	  "        raise HTTPException(status_code=404, detail=\"not found\")\n"
	  "    return item\n" },
	{ "python",
	  "import psycopg\n\n"
	  "with psycopg.connect(\"dbname=$z user=app\") as conn:\n"
	  "    with conn.cursor() as cur:\n"
	  "        cur.execute(\n"
	  "            \"SELECT id, created_at FROM $z WHERE created_at > now() - interval '$i days' LIMIT %s\",\n"
	  "            ($r,),\n"
	  "        )\n"
	  "        for row in cur.fetchall():\n"
	  "            print(row)\n" },
	{ "python",
	  "import torch\nfrom torch import nn\n\n"
	  "model = nn.Sequential(nn.Linear($r, $r), nn.ReLU(), nn.Linear($r, $i))\n"
	  "optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)\n"
	  "loss_fn = nn.CrossEntropyLoss()\n\n"
	  "for epoch in range($i):\n"
	  "    for xb, yb in loader:\n"
	  "        optimizer.zero_grad()\n"
	  "        loss = loss_fn(model(xb), yb)\n"
	  "        loss.backward()\n"
	  "        optimizer.step()\n"
	  "    print(f\"epoch {epoch}: loss={loss.item():.4f}\")\n" },
	{ "python",
	  "import numpy as np\n\n"
	  "returns = prices.pct_change().dropna()\n"
	  "annual_vol = returns.std() * np.sqrt(252)\n"
	  "sharpe = (returns.mean() * 252 - 0.02) / annual_vol\n"
	  "print(f\"volatility={annual_vol:.2f} sharpe={sharpe:.2f}\")\n" },
	{ "python",
	  "import boto3\n\n"
	  "s3 = boto3.client(\"s3\")\n"
	  "s3.upload_file(\"$z.parquet\", \"my-$Z-bucket\", \"raw/$Z.parquet\")\n" },
	{ "bash",
	  "docker compose up -d $z\n"
	  "kubectl rollout status deployment/$Z --timeout=$rs\n"
	  "kubectl logs deployment/$Z --tail=$r\n" },
	{ "sql",
	  "CREATE INDEX CONCURRENTLY idx_$z_created_at ON $Z (created_at);\n\n"
	  "EXPLAIN (ANALYZE, BUFFERS)\n"
	  "SELECT id, status\nFROM $Z\n"
	  "WHERE created_at > now() - interval '$i days'\n"
	  "ORDER BY created_at DESC\nLIMIT $r;\n" },
	{ "yaml",
	  "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: $z\n"
	  "spec:\n  replicas: $i\n  template:\n    spec:\n      containers:\n"
	  "        - name: $Z\n          image: registry.local/$Z:1.$i.0\n"
	  "          resources:\n            limits:\n"
	  "              cpu: \"500m\"\n              memory: \"$rMi\"\n" },
	{ "json",
	  "{\n  \"service\": \"$z\",\n  \"timeout_ms\": $r,\n  \"retries\": $i,\n"
	  "  \"features\": [\"$z\", \"audit-log\"]\n}\n" },
};

/* ------------------------------------------------------------- generator */

enum { SIG_URL, SIG_PCT, SIG_MULT, SIG_CITE, SIG_FUTURE, SIG_COUNT };

/* Mean agent-text bytes between signals of each kind (10 KiB / rate). */
static const uint32_t sig_mean[SIG_COUNT] = { 10240, 10240, 20480, 20480, 34133 };

typedef struct {
	Rng rng;
	const Topic *topic;
	int in_span;                 /* sentences are tool output, not agent text */
	uint32_t last_tool, last_metric, last_surname, last_ident;
	const char *last_tpl;          /* avoids repeating a template back to back */
	uint64_t agent_pos;          /* agent-text bytes committed so far */
	uint64_t next_at[SIG_COUNT]; /* agent_pos at which each signal is due */
	uint64_t gen_total, span_total;
	uint32_t span_count;
	uint32_t span_pct;
} Gen;

static const char *lpick(Gen *g, const List *l)
{
	return l->v[rng_below(&g->rng, l->n)];
}

#define PICK(g, a) ((a)[rng_below(&(g)->rng, (uint32_t)NELEM(a))])

static void expand(Gen *g, Buf *b, const char *t);

static void put_url(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	switch (rng_below(r, 6)) {
	case 0:
		put(b, "https://docs.");
		put(b, PICK(g, url_vendors));
		put(b, ".com/");
		put(b, PICK(g, url_sections));
		put_c(b, '/');
		put(b, PICK(g, url_pages));
		break;
	case 1:
	case 2:
		put(b, "https://github.com/");
		put(b, PICK(g, url_orgs));
		put_c(b, '/');
		put(b, PICK(g, url_repos));
		if (rng_chance(r, 400)) {
			put(b, "/blob/main/docs/");
			put(b, PICK(g, url_pages));
			put(b, ".md");
		}
		break;
	case 3:
		put(b, "https://arxiv.org/abs/");
		put_u(b, rng_range(r, 18, 24));
		put_u_width(b, rng_range(r, 1, 12), 2);
		put_c(b, '.');
		put_u_width(b, rng_below(r, 20000), 5);
		break;
	case 4:
		put(b, "https://blog.");
		put(b, PICK(g, url_vendors));
		put(b, ".io/posts/");
		put(b, PICK(g, url_slugs));
		break;
	default:
		put(b, rng_chance(r, 200) ? "http://www." : "https://www.");
		put(b, PICK(g, url_sites));
		put(b, ".org/");
		put(b, PICK(g, url_sections));
		put_c(b, '/');
		put(b, PICK(g, url_pages));
		break;
	}
}

static void put_decimal(Rng *r, Buf *b, uint32_t lo, uint32_t hi)
{
	put_u(b, rng_range(r, lo, hi));
	put_c(b, '.');
	put_u(b, rng_range(r, 1, 9));
}

static void put_pct(Rng *r, Buf *b)
{
	put_decimal(r, b, 1, 97);
	if (rng_chance(r, 80))
		put_u(b, rng_range(r, 1, 9));
	put(b, rng_chance(r, 150) ? " %" : "%");
}

static void put_version(Rng *r, Buf *b)
{
	if (rng_chance(r, 500)) {
		put_c(b, 'v');
		put_u(b, rng_range(r, 1, 5));
		put_c(b, '.');
		put_u(b, rng_range(r, 0, 12));
		put_c(b, '.');
		put_u(b, rng_range(r, 0, 9));
	} else {
		put_u(b, rng_range(r, 2, 17));
		put_c(b, '.');
		put_u(b, rng_range(r, 0, 12));
	}
}

static void slot(Gen *g, Buf *b, char c)
{
	const Topic *tp = g->topic;
	Rng *r = &g->rng;
	uint32_t i;

	switch (c) {
	case 'n': put(b, lpick(g, &tp->nouns)); break;
	case 'a': put(b, lpick(g, &tp->actions)); break;
	case 'm':
		g->last_metric = rng_below(r, tp->metrics.n);
		put(b, tp->metrics.v[g->last_metric]);
		break;
	case 'M':
		i = (g->last_metric + 1 + rng_below(r, tp->metrics.n - 1)) % tp->metrics.n;
		put(b, tp->metrics.v[i]);
		break;
	case 'c': put(b, lpick(g, &tp->contexts)); break;
	case 'q': put(b, tp->name); break;
	case 't':
		g->last_tool = rng_below(r, tp->tools.n);
		put(b, tp->tools.v[g->last_tool]);
		break;
	case 'T':
		i = (g->last_tool + 1 + rng_below(r, tp->tools.n - 1)) % tp->tools.n;
		put(b, tp->tools.v[i]);
		break;
	case 'k':
		put_c(b, '`');
		put(b, lpick(g, &tp->code));
		put_c(b, '`');
		break;
	case 'H':
		put(b, rng_chance(r, 700) ? lpick(g, &tp->headings)
		                          : PICK(g, generic_headings));
		break;
	case 'o': put(b, PICK(g, openers)); break;
	case 'h': put(b, PICK(g, hedges)); break;
	case 'j': put(b, PICK(g, adjectives)); break;
	case 'g': put(b, PICK(g, populations)); break;
	case 'z':
		g->last_ident = rng_below(r, (uint32_t)NELEM(idents));
		put(b, idents[g->last_ident]);
		break;
	case 'Z': put(b, idents[g->last_ident]); break;
	case 'r': put(b, PICK(g, round_ints)); break;
	case 'C': expand(g, b, PICK(g, claim_tpl)); break;
	case 's':
		g->last_surname = rng_below(r, (uint32_t)NELEM(surnames));
		put(b, surnames[g->last_surname]);
		break;
	case 'S':
		i = (g->last_surname + 1 + rng_below(r, (uint32_t)NELEM(surnames) - 1)) %
		    (uint32_t)NELEM(surnames);
		put(b, surnames[i]);
		break;
	case 'u': put_url(g, b); break;
	case 'p': put_pct(r, b); break;
	case 'x':
		put_decimal(r, b, 1, 9);
		put_c(b, 'x');
		break;
	case 'P':
		put_u(b, rng_chance(r, 150) ? 25 + 50 * rng_below(r, 2)
		                            : 10 * rng_range(r, 1, 9));
		put_c(b, '%');
		break;
	case 'K':
		put_u(b, rng_chance(r, 200) ? 10 : rng_range(r, 2, 5));
		put_c(b, 'x');
		break;
	case 'y': put_u(b, rng_range(r, 2017, 2024)); break;
	case 'Y': put_u(b, rng_range(r, 2026, 2029)); break;
	case 'F':
		put(b, PICK(g, months));
		put_c(b, ' ');
		put_u(b, rng_range(r, 2026, 2029));
		break;
	case 'v': put_version(r, b); break;
	case 'i': put_u(b, rng_range(r, 2, 16)); break;
	case 'I': put_u_commas(b, (uint64_t)rng_range(r, 1, 500) * 100); break;
	case 'd': put_decimal(r, b, 1, 99); break;
	case '$': put_c(b, '$'); break;
	default: break;
	}
}

static void expand(Gen *g, Buf *b, const char *t)
{
	for (;;) {
		const char *d = strchr(t, '$');
		if (!d) {
			put(b, t);
			return;
		}
		put_n(b, t, (size_t)(d - t));
		if (!d[1])
			return;
		slot(g, b, d[1]);
		t = d + 2;
	}
}

/* Which signal (if any) the next agent sentence at offset `here` carries. */
static int due_signal(Gen *g, uint64_t here)
{
	for (int k = 0; k < SIG_COUNT; k++) {
		if (here >= g->next_at[k]) {
			g->next_at[k] += sig_mean[k] / 2 + rng_below(&g->rng, sig_mean[k]);
			return k;
		}
	}
	return -1;
}

/* Tool output is dense with signals so that skipping spans matters. */
static int span_signal(Gen *g)
{
	uint32_t x = rng_below(&g->rng, 100);
	if (x < 18) return SIG_URL;
	if (x < 40) return SIG_PCT;
	if (x < 50) return SIG_MULT;
	if (x < 64) return SIG_CITE;
	if (x < 72) return SIG_FUTURE;
	return -1;
}

static const char *signal_template(Gen *g, int kind)
{
	switch (kind) {
	case SIG_URL: return PICK(g, url_tpl);
	case SIG_PCT: return PICK(g, pct_tpl);
	case SIG_MULT: return PICK(g, mult_tpl);
	case SIG_CITE: return PICK(g, cite_tpl);
	default: return PICK(g, future_tpl);
	}
}

/* Expand one template as a sentence (capitalized) and append it to `out`. */
static void put_sentence_tpl(Gen *g, Buf *out, const char *tpl)
{
	char tmp[SENTENCE_CAP];
	Buf s = { tmp, 0, sizeof tmp };
	expand(g, &s, tpl);
	cap_first(&s);
	put_n(out, s.p, s.n);
}

static void sentence(Gen *g, Buf *out)
{
	int kind = g->in_span ? span_signal(g) : due_signal(g, g->agent_pos + out->n);
	const char *tpl;

	if (kind >= 0)
		tpl = signal_template(g, kind);
	else if (rng_chance(&g->rng, 10))
		tpl = PICK(g, utf8_tpl);
	else if (rng_chance(&g->rng, 200))
		tpl = PICK(g, near_tpl);
	else
		do
			tpl = PICK(g, plain_tpl);
		while (tpl == g->last_tpl);
	g->last_tpl = tpl;
	put_sentence_tpl(g, out, tpl);
}

static void sentences(Gen *g, Buf *b, uint32_t lo, uint32_t hi)
{
	uint32_t n = rng_range(&g->rng, lo, hi);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			put_c(b, ' ');
		sentence(g, b);
	}
}

/* ------------------------------------------------------- agent blocks */

static void block_paragraph(Gen *g, Buf *b)
{
	sentences(g, b, 2, 6);
	put_c(b, '\n');
}

static void block_heading(Gen *g, Buf *b, const char *prefix)
{
	put(b, prefix);
	expand(g, b, "$H");
	put_c(b, '\n');
}

static void block_list(Gen *g, Buf *b, int numbered)
{
	uint32_t n = rng_range(&g->rng, 3, 6);
	int bold = rng_chance(&g->rng, 400);

	if (rng_chance(&g->rng, 700)) {
		put_sentence_tpl(g, b, PICK(g, list_lead_tpl));
		put(b, "\n\n");
	}
	for (uint32_t i = 0; i < n; i++) {
		if (numbered) {
			put_u(b, i + 1);
			put(b, ". ");
		} else {
			put(b, "- ");
		}
		if (bold) {
			put(b, "**");
			put(b, PICK(g, bold_keys));
			put(b, ":** ");
		}
		sentences(g, b, 1, 2);
		put_c(b, '\n');
	}
}

static void block_code(Gen *g, Buf *b)
{
	const CodeTpl *c;

	/* Python is the most common language in assistant answers. */
	if (rng_chance(&g->rng, 600))
		c = &code_tpls[rng_below(&g->rng, 8)];
	else
		c = &code_tpls[rng_below(&g->rng, (uint32_t)NELEM(code_tpls))];
	put_sentence_tpl(g, b, PICK(g, code_lead_tpl));
	put(b, "\n\n```");
	put(b, c->lang);
	put_c(b, '\n');
	expand(g, b, c->body);
	put(b, "```\n");
}

static void block_table(Gen *g, Buf *b)
{
	const List *tools = &g->topic->tools;
	uint32_t rows = rng_range(&g->rng, 3, 5);
	uint32_t start = rng_below(&g->rng, tools->n);

	put_sentence_tpl(g, b, PICK(g, table_lead_tpl));
	put(b, "\n\n| Option | Typical latency | Effort | When to use |\n");
	put(b, "|---|---|---|---|\n");
	for (uint32_t i = 0; i < rows; i++) {
		put(b, "| ");
		put(b, tools->v[(start + i) % tools->n]);
		put(b, " | ");
		put_u(b, rng_range(&g->rng, 2, 400));
		put(b, " ms | ");
		put(b, PICK(g, effort));
		put(b, " | ");
		put(b, lpick(g, &g->topic->contexts));
		put(b, " |\n");
	}
}

static void block_intro(Gen *g, Buf *b)
{
	put_sentence_tpl(g, b, PICK(g, intro_tpl));
	put_c(b, ' ');
	sentences(g, b, 1, 3);
	put_c(b, '\n');
}

static void block_closing(Gen *g, Buf *b)
{
	if (rng_chance(&g->rng, 500)) {
		sentences(g, b, 1, 2);
		put_c(b, ' ');
	}
	put_sentence_tpl(g, b, PICK(g, closing_tpl));
	put_c(b, '\n');
}

/* One body block of a random kind. */
static void block_body(Gen *g, Buf *b)
{
	uint32_t x = rng_below(&g->rng, 100);
	if (x < 48) {
		block_paragraph(g, b);
	} else if (x < 63) {
		block_list(g, b, 0);
	} else if (x < 73) {
		block_list(g, b, 1);
	} else if (x < 86) {
		block_code(g, b);
	} else if (x < 96) {
		block_heading(g, b, "### ");
		put_c(b, '\n');
		block_paragraph(g, b);
	} else {
		block_table(g, b);
	}
}

/* ------------------------------------------------------------ tool spans */

static void put_date(Rng *r, Buf *b)
{
	put_u(b, rng_range(r, 2018, 2024));
	put_c(b, '-');
	put_u_width(b, rng_range(r, 1, 12), 2);
	put_c(b, '-');
	put_u_width(b, rng_range(r, 1, 28), 2);
}

static const char *const title_tpl[] = {
	"$H: a practical guide", "How to $a with $t",
	"$t vs $T: which should you choose?", "Understanding $n",
	"$H ($y edition)", "What nobody tells you about $n",
	"$n explained", "Ask HN: how do you $a?",
};
static const char *const query_tpl[] = {
	"how to $a", "$t $n", "$n best practices", "$t vs $T $m", "$n $m",
};

static void span_search(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	uint32_t n = rng_range(r, 3, 8);

	put(b, "Search results for \"");
	expand(g, b, PICK(g, query_tpl));
	put(b, "\":\n\n");
	for (uint32_t i = 0; i < n; i++) {
		put_u(b, i + 1);
		put(b, ". ");
		put_sentence_tpl(g, b, PICK(g, title_tpl));
		put(b, "\n   ");
		put_url(g, b);
		put(b, "\n   ");
		if (rng_chance(r, 500)) {
			put(b, PICK(g, month_abbr));
			put_c(b, ' ');
			put_u(b, rng_range(r, 1, 28));
			put(b, ", ");
			put_u(b, rng_range(r, 2019, 2024));
			put(b, " - ");
		}
		sentences(g, b, 1, 2);
		put(b, " ...\n");
	}
}

static void span_json(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	uint32_t n = rng_range(r, 2, 5);

	put(b, "{\n  \"status\": \"ok\",\n  \"request_id\": \"req_");
	put_hex(b, r, 12);
	put(b, "\",\n  \"elapsed_ms\": ");
	put_decimal(r, b, 1, 400);
	put(b, ",\n  \"results\": [\n");
	for (uint32_t i = 0; i < n; i++) {
		put(b, "    {\n      \"id\": ");
		put_u(b, rng_range(r, 1000, 99999));
		put(b, ",\n      \"name\": \"");
		expand(g, b, "$t");
		put(b, "\",\n      \"url\": \"");
		put_url(g, b);
		put(b, "\",\n      \"score\": 0.");
		put_u_width(b, rng_below(r, 1000), 3);
		put(b, ",\n      \"change\": \"");
		put_pct(r, b);
		put(b, "\",\n      \"updated_at\": \"");
		put_date(r, b);
		put(b, "T");
		put_u_width(b, rng_below(r, 24), 2);
		put_c(b, ':');
		put_u_width(b, rng_below(r, 60), 2);
		put(b, ":00Z\",\n      \"summary\": \"");
		sentence(g, b);
		put(b, i + 1 < n ? "\"\n    },\n" : "\"\n    }\n");
	}
	put(b, "  ],\n  \"total\": ");
	put_u(b, rng_range(r, n, 500));
	put(b, ",\n  \"next_page\": null\n}\n");
}

static void shell_pytest(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	uint32_t passed = rng_range(r, 12, 240);
	put(b, "$ pytest -q\n");
	for (uint32_t left = passed; left;) {
		uint32_t k = left > 70 ? 70 : left;
		for (uint32_t i = 0; i < k; i++)
			put_c(b, '.');
		left -= k;
		put(b, "  [");
		put_u(b, (uint64_t)(passed - left) * 100 / passed);
		put(b, "%]\n");
	}
	put_u(b, passed);
	put(b, " passed, ");
	put_u(b, rng_below(r, 4));
	put(b, " skipped in ");
	put_decimal(r, b, 0, 40);
	put(b, "s\n");
}

static void shell_df(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	put(b, "$ df -h\nFilesystem      Size  Used Avail Use% Mounted on\n");
	uint32_t n = rng_range(r, 2, 4);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t size = rng_range(r, 20, 960);
		uint32_t used = rng_below(r, size);
		put(b, "/dev/nvme0n1p");
		put_u(b, i + 1);
		put(b, "  ");
		put_u(b, size);
		put(b, "G  ");
		put_u(b, used);
		put(b, "G  ");
		put_u(b, size - used);
		put(b, "G  ");
		put_u(b, (uint64_t)used * 100 / size);
		if (i) {
			put(b, "% /data");
			put_u(b, i);
			put_c(b, '\n');
		} else {
			put(b, "% /\n");
		}
	}
}

static void shell_bench(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	put(b, "$ ./bench --requests ");
	put_u(b, 10000);
	put(b, "\nrequests:      10000\nthroughput:    ");
	put_decimal(r, b, 200, 9000);
	put(b, " req/s\np50 latency:   ");
	put_decimal(r, b, 1, 9);
	put(b, " ms\np99 latency:   ");
	put_decimal(r, b, 10, 90);
	put(b, " ms\nchange vs baseline: ");
	put_c(b, rng_chance(r, 500) ? '+' : '-');
	put_pct(r, b);
	put(b, "\nspeedup: ");
	put_decimal(r, b, 1, 4);
	put(b, "x\n");
}

static void shell_git(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	uint32_t n = rng_range(r, 3, 7);
	put(b, "$ git log --oneline -n ");
	put_u(b, n);
	put_c(b, '\n');
	for (uint32_t i = 0; i < n; i++) {
		put_hex(b, r, 7);
		put(b, rng_chance(r, 500) ? " fix: " : " feat: ");
		expand(g, b, "$a");
		put_c(b, '\n');
	}
}

static void shell_ps(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	uint32_t n = rng_range(r, 2, 5);
	put(b, "$ ps aux --sort=-%cpu | head -");
	put_u(b, n + 1);
	put(b, "\nUSER       PID %CPU %MEM    VSZ   RSS COMMAND\n");
	for (uint32_t i = 0; i < n; i++) {
		put(b, "app      ");
		put_u(b, rng_range(r, 1000, 65000));
		put_c(b, ' ');
		put_decimal(r, b, 0, 99);
		put(b, "  ");
		put_decimal(r, b, 0, 20);
		put_c(b, ' ');
		put_u(b, rng_range(r, 100000, 999999));
		put_c(b, ' ');
		put_u(b, rng_range(r, 10000, 99999));
		put(b, " python -m ");
		put(b, PICK(g, idents));
		put(b, ".worker\n");
	}
}

static void shell_curl(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	put(b, "$ curl -s -o /dev/null -w '%{http_code} %{time_total}\\n' ");
	put_url(g, b);
	put(b, "\n200 0.");
	put_u_width(b, rng_below(r, 1000), 3);
	put_c(b, '\n');
}

static void shell_pip(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	const char *pkg = PICK(g, url_repos);
	char vbuf[32];
	Buf ver = { vbuf, 0, sizeof vbuf };

	put_u(&ver, rng_range(r, 0, 4));
	put_c(&ver, '.');
	put_u(&ver, rng_range(r, 0, 20));
	put(&ver, ".0");
	put(b, "$ pip install -U ");
	put(b, pkg);
	put(b, "\nCollecting ");
	put(b, pkg);
	put(b, "\n  Downloading ");
	put(b, pkg);
	put_c(b, '-');
	put_n(b, ver.p, ver.n);
	put(b, "-py3-none-any.whl (");
	put_u(b, rng_range(r, 12, 900));
	put(b, " kB)\nSuccessfully installed ");
	put(b, pkg);
	put_c(b, '-');
	put_n(b, ver.p, ver.n);
	put_c(b, '\n');
}

static void span_shell(Gen *g, Buf *b)
{
	static void (*const cmds[])(Gen *, Buf *) = {
		shell_pytest, shell_df, shell_bench, shell_git, shell_ps,
		shell_curl, shell_pip,
	};
	uint32_t n = rng_range(&g->rng, 1, 3);
	for (uint32_t i = 0; i < n; i++)
		PICK(g, cmds)(g, b);
	put(b, "exit code: 0\n");
}

static void span_page(Gen *g, Buf *b)
{
	put(b, "Title: ");
	put_sentence_tpl(g, b, PICK(g, title_tpl));
	put(b, "\nURL: ");
	put_url(g, b);
	put(b, "\nPublished: ");
	put_date(&g->rng, b);
	put(b, "\n\n");
	sentences(g, b, 3, 7);
	put(b, "\n\n");
	sentences(g, b, 2, 6);
	put_c(b, '\n');
}

static void span_compact(Gen *g, Buf *b)
{
	Rng *r = &g->rng;
	switch (rng_below(r, 4)) {
	case 0:
		put(b, "{\"status\": \"ok\", \"rows\": ");
		put_u(b, rng_below(r, 500));
		put(b, ", \"elapsed_ms\": ");
		put_decimal(r, b, 0, 90);
		put(b, ", \"cache_hit\": \"");
		put_pct(r, b);
		put(b, "\"}");
		break;
	case 1:
		put(b, "exit code 0");
		break;
	case 2:
		put(b, "File written successfully.");
		break;
	default:
		sentence(g, b);
		break;
	}
}

static void gen_span(Gen *g, Buf *b)
{
	const char *tag = (g->span_count++ & 1) ? "tool_result" : "tool_output";
	int compact = rng_chance(&g->rng, 150);

	g->in_span = 1;
	put_c(b, '<');
	put(b, tag);
	put_c(b, '>');
	if (compact) {
		span_compact(g, b);
	} else {
		put_c(b, '\n');
		switch (rng_below(&g->rng, 4)) {
		case 0: span_search(g, b); break;
		case 1: span_json(g, b); break;
		case 2: span_shell(g, b); break;
		default: span_page(g, b); break;
		}
	}
	put(b, "</");
	put(b, tag);
	put(b, ">\n");
	g->in_span = 0;
}

/* ---------------------------------------------------------------- output */

typedef struct {
	FILE *f;
	char *buf;
	size_t n, cap;
	uint64_t left; /* bytes still allowed */
	int done;
} Out;

static void die_write(void)
{
	int e = errno;
	fprintf(stderr, "gencorpus: write error: %s\n", e ? strerror(e) : "unknown error");
	exit(1);
}

static void out_flush(Out *o)
{
	if (o->n) {
		errno = 0;
		if (fwrite(o->buf, 1, o->n, o->f) != o->n)
			die_write();
	}
	o->n = 0;
}

static void out_put(Out *o, const char *p, size_t n)
{
	if (o->done)
		return;
	if (n >= o->left) {
		n = (size_t)o->left;
		o->done = 1;
	}
	o->left -= n;
	while (n) {
		size_t k = o->cap - o->n;
		if (k > n)
			k = n;
		memcpy(o->buf + o->n, p, k);
		o->n += k;
		p += k;
		n -= k;
		if (o->n == o->cap)
			out_flush(o);
	}
}

static void out_close(Out *o)
{
	out_flush(o);
	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		die_write();
	if (fclose(o->f) != 0)
		die_write();
}

/* Agent block followed by a blank-line separator. */
static void emit_agent(Gen *g, Out *o, Buf *b)
{
	put_c(b, '\n');
	out_put(o, b->p, b->n);
	g->agent_pos += b->n;
	g->gen_total += b->n;
	b->n = 0;
}

/* Emit tool spans until the span share is back on target. */
static void emit_spans(Gen *g, Out *o, Buf *b)
{
	while (!o->done && g->span_pct &&
	       g->span_total * 100 < (uint64_t)g->span_pct * g->gen_total) {
		gen_span(g, b);
		out_put(o, b->p, b->n);
		g->span_total += b->n;
		g->gen_total += b->n;
		b->n = 0;
		/* blank line after the span belongs to the agent text */
		out_put(o, "\n", 1);
		g->agent_pos += 1;
		g->gen_total += 1;
	}
}

static void gen_answer(Gen *g, Out *o, Buf *b)
{
	uint32_t nblocks;

	g->topic = &topics[rng_below(&g->rng, (uint32_t)NELEM(topics))];
	if (rng_chance(&g->rng, 700)) {
		block_heading(g, b, "## ");
		emit_agent(g, o, b);
	}
	block_intro(g, b);
	emit_agent(g, o, b);
	nblocks = rng_range(&g->rng, 2, 7);
	for (uint32_t i = 0; i < nblocks && !o->done; i++) {
		emit_spans(g, o, b);
		block_body(g, b);
		emit_agent(g, o, b);
	}
	emit_spans(g, o, b);
	if (rng_chance(&g->rng, 600)) {
		block_closing(g, b);
		emit_agent(g, o, b);
	}
}

static void gen_init(Gen *g, uint64_t seed, uint32_t span_pct)
{
	memset(g, 0, sizeof *g);
	rng_seed(&g->rng, seed);
	g->span_pct = span_pct;
	g->topic = &topics[0];
	for (int k = 0; k < SIG_COUNT; k++)
		g->next_at[k] = rng_below(&g->rng, sig_mean[k]);
}

static void gen_corpus(Gen *g, Out *o)
{
	Buf b = { malloc(BLOCK_CAP), 0, BLOCK_CAP };
	if (!b.p) {
		fprintf(stderr, "gencorpus: out of memory\n");
		exit(1);
	}
	while (!o->done)
		gen_answer(g, o, &b);
	free(b.p);
}

/* Append blk (plus a blank-line separator) to msg if it stays within MSG_MAX. */
static int msg_try(Gen *g, Buf *msg, Buf *blk)
{
	size_t need = blk->n + (msg->n ? 1 : 0);
	int ok = msg->n + need <= MSG_MAX;
	if (ok) {
		if (msg->n)
			put_c(msg, '\n');
		put_n(msg, blk->p, blk->n);
		g->agent_pos = msg->n;
	}
	blk->n = 0;
	return ok;
}

static void gen_message(Gen *g, Out *o)
{
	static char mbuf[MSG_MAX], bbuf[BLOCK_CAP];
	Buf msg = { mbuf, 0, sizeof mbuf };
	Buf blk = { bbuf, 0, sizeof bbuf };
	int fails = 0;

	g->topic = &topics[rng_below(&g->rng, (uint32_t)NELEM(topics))];
	if (rng_chance(&g->rng, 700)) {
		block_heading(g, &blk, "## ");
		msg_try(g, &msg, &blk);
	}
	block_intro(g, &blk);
	msg_try(g, &msg, &blk);
	while (msg.n < MSG_MIN) {
		if (fails < 4)
			block_body(g, &blk);
		else if (fails < 40)
			block_paragraph(g, &blk);
		else
			put(&blk, "Hope this helps!\n"); /* always fits */
		fails = msg_try(g, &msg, &blk) ? 0 : fails + 1;
	}
	out_put(o, msg.p, msg.n);
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f, "usage: gencorpus [--seed N] [--size BYTES[K|M|G]] [--spans PERCENT] "
	           "[--message] [--help]\n");
}

static int parse_u64(const char *s, uint64_t *out, const char **end_out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE || end == s)
		return -1;
	if (end_out)
		*end_out = end;
	else if (*end)
		return -1;
	*out = v;
	return 0;
}

static int parse_size(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int shift = 0;

	if (parse_u64(s, &v, &end))
		return -1;
	switch (*end) {
	case '\0': break;
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	default: return -1;
	}
	if (*end || v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

/* Accept "--opt VALUE" and "--opt=VALUE"; returns the value or NULL. */
static const char *opt_value(const char *opt, int argc, char **argv, int *i)
{
	size_t n = strlen(opt);
	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0') {
		if (*i + 1 >= argc)
			return "";
		return argv[++*i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, size = 64ull << 20, spans = 0;
	int message = 0;
	Gen g;
	Out o;

	for (int i = 1; i < argc; i++) {
		const char *v;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--message") == 0) {
			message = 1;
		} else if ((v = opt_value("--seed", argc, argv, &i))) {
			if (parse_u64(v, &seed, NULL))
				goto bad;
		} else if ((v = opt_value("--size", argc, argv, &i))) {
			if (parse_size(v, &size))
				goto bad;
		} else if ((v = opt_value("--spans", argc, argv, &i))) {
			if (parse_u64(v, &spans, NULL) || spans > 90)
				goto bad;
		} else {
			goto bad;
		}
	}

#ifdef SIGPIPE
	signal(SIGPIPE, SIG_IGN);
#endif
	setvbuf(stdout, NULL, _IONBF, 0);

	o.f = stdout;
	o.cap = OUT_BUF_SIZE;
	o.n = 0;
	o.done = 0;
	o.buf = malloc(o.cap);
	if (!o.buf) {
		fprintf(stderr, "gencorpus: out of memory\n");
		return 1;
	}

	gen_init(&g, seed, (uint32_t)spans);
	if (message) {
		o.left = MSG_MAX;
		gen_message(&g, &o);
	} else {
		o.left = size;
		o.done = size == 0;
		gen_corpus(&g, &o);
	}
	out_close(&o);
	free(o.buf);
	return 0;

bad:
	usage(stderr);
	return 2;
}
