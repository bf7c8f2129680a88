//! The S3-compatible [`Backend`], through Apache Arrow's `object_store` crate (its S3
//! client signs, retries and streams; writing one here would be worse at all three).
//! Objects live under `s3://bucket/prefix/KEY`. Blobs and manifests are put with
//! `If-None-Match: *` (S3 and the common compatible servers honour it), so no object
//! is ever rewritten and two hosts cannot both publish one manifest number. The
//! client is async: each call runs on a small runtime of the backend's own, and the
//! calling thread waits, so the store's API stays blocking (and usable from inside
//! another runtime).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

use futures::stream::{StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3, AmazonS3Builder, S3ConditionalPut};
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload};

use super::backend::{Backend, Listed};
use super::{StoreError, StoreErrorKind};

/// Requests in flight at once for one call (uploads, downloads, existence checks).
const IN_FLIGHT: usize = 16;

/// Above this many existence checks, one listing of `blobs/` answers them all.
const LIST_ABOVE: usize = 64;

/// Where and how to reach a bucket. Unset fields come from the environment as the AWS
/// tools read it: `AWS_ENDPOINT_URL` (or `AWS_ENDPOINT`), `AWS_REGION` (or
/// `AWS_DEFAULT_REGION`), `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
/// `AWS_SESSION_TOKEN`; an `http://` endpoint is allowed as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct S3Config {
    pub bucket: String,
    /// Keys go under this prefix (no leading or trailing `/`); empty for the bucket's root.
    pub prefix: String,
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    pub session_token: Option<String>,
}

impl S3Config {
    /// A bucket and prefix, everything else from the environment.
    pub fn new(bucket: impl Into<String>, prefix: impl Into<String>) -> S3Config {
        S3Config {
            bucket: bucket.into(),
            prefix: prefix.into().trim_matches('/').to_owned(),
            ..S3Config::default()
        }
    }

    /// Parses `s3://bucket[/prefix]`.
    ///
    /// ```
    /// let c = shellbox::store::S3Config::from_url("s3://agents/prod/sessions").unwrap();
    /// assert_eq!((c.bucket.as_str(), c.prefix.as_str()), ("agents", "prod/sessions"));
    /// assert!(shellbox::store::S3Config::from_url("s3:///x").is_err());
    /// ```
    pub fn from_url(url: &str) -> Result<S3Config, StoreError> {
        let rest = url.strip_prefix("s3://").unwrap_or(url);
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(StoreError::new(
                StoreErrorKind::InvalidName,
                None,
                format!("{url}: an s3:// store needs a bucket (s3://BUCKET/PREFIX)"),
            ));
        }
        Ok(S3Config::new(bucket, prefix))
    }

    /// The endpoint, with the variables filled in.
    fn endpoint(&self) -> Option<String> {
        self.endpoint.clone().or_else(|| {
            ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT"]
                .iter()
                .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        })
    }

    fn client(&self) -> Result<AmazonS3, StoreError> {
        let mut b = AmazonS3Builder::from_env()
            .with_bucket_name(&self.bucket)
            .with_conditional_put(S3ConditionalPut::ETagMatch);
        if let Some(e) = self.endpoint() {
            b = b.with_allow_http(e.starts_with("http://")).with_endpoint(e);
        }
        let region = self.region.clone().or_else(|| {
            ["AWS_REGION", "AWS_DEFAULT_REGION"]
                .iter()
                .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        });
        b = b.with_region(region.unwrap_or_else(|| "us-east-1".to_owned()));
        if let Some(k) = &self.access_key_id {
            b = b.with_access_key_id(k);
        }
        if let Some(k) = &self.secret_access_key {
            b = b.with_secret_access_key(k);
        }
        if let Some(t) = &self.session_token {
            b = b.with_token(t);
        }
        b.build().map_err(|e| {
            StoreError::new(
                StoreErrorKind::Io,
                None,
                format!("s3://{}: {e}", self.bucket),
            )
        })
    }
}

/// A bucket (and prefix) as a store's backend.
pub(super) struct S3 {
    client: Arc<AmazonS3>,
    config: S3Config,
    /// Runs the client's futures; `None` only while dropping.
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for S3 {
    fn drop(&mut self) {
        // A runtime dropped inside another one's task would panic waiting for its
        // threads: let them go without waiting.
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

impl S3 {
    pub(super) fn open(config: S3Config) -> Result<S3, StoreError> {
        let client = Arc::new(config.client()?);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("shellbox-s3")
            .enable_all()
            .build()
            .map_err(|e| StoreError::new(StoreErrorKind::Io, None, format!("s3: {e}")))?;
        Ok(S3 {
            client,
            config,
            runtime: Some(runtime),
        })
    }

    /// Runs `fut` on the backend's runtime and waits for it on this thread.
    fn block<T: Send + 'static>(
        &self,
        fut: impl Future<Output = T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let rt = self
            .runtime
            .as_ref()
            .ok_or_else(|| self.error("", "shut down"))?;
        rt.spawn(async move {
            let _ = tx.send(fut.await);
        });
        rx.recv()
            .map_err(|_| self.error("", "the request was dropped"))
    }

    fn path(&self, key: &str) -> ObjectPath {
        if self.config.prefix.is_empty() {
            ObjectPath::from(key)
        } else {
            ObjectPath::from(format!("{}/{key}", self.config.prefix))
        }
    }

    /// The key of an object path under the prefix.
    fn key_of(&self, path: &ObjectPath) -> Option<String> {
        let full = path.as_ref();
        if self.config.prefix.is_empty() {
            return Some(full.to_owned());
        }
        full.strip_prefix(&self.config.prefix)
            .and_then(|r| r.strip_prefix('/'))
            .map(str::to_owned)
    }

    fn error(&self, key: &str, e: impl std::fmt::Display) -> StoreError {
        let at = self.location(key);
        StoreError::new(
            StoreErrorKind::Io,
            Some(&at),
            format!("{}: {e}", at.display()),
        )
    }
}

async fn get_one(
    client: Arc<AmazonS3>,
    path: ObjectPath,
) -> Result<Option<Vec<u8>>, object_store::Error> {
    match client.get(&path).await {
        Ok(r) => Ok(Some(r.bytes().await?.to_vec())),
        Err(object_store::Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Puts `data` at `path` unless something is there: `Ok(false)` when it was.
async fn create_one(
    client: Arc<AmazonS3>,
    path: ObjectPath,
    data: PutPayload,
) -> Result<bool, object_store::Error> {
    let opts = PutOptions {
        mode: PutMode::Create,
        ..PutOptions::default()
    };
    match client.put_opts(&path, data, opts).await {
        Ok(_) => Ok(true),
        Err(
            object_store::Error::AlreadyExists { .. } | object_store::Error::Precondition { .. },
        ) => Ok(false),
        Err(e) => Err(e),
    }
}

impl Backend for S3 {
    fn root(&self) -> PathBuf {
        let mut url = format!("s3://{}", self.config.bucket);
        if !self.config.prefix.is_empty() {
            url.push('/');
            url.push_str(&self.config.prefix);
        }
        PathBuf::from(url)
    }

    fn location(&self, key: &str) -> PathBuf {
        if key.is_empty() {
            return self.root();
        }
        self.root().join(key)
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let fut = get_one(self.client.clone(), self.path(key));
        self.block(fut)?.map_err(|e| self.error(key, e))
    }

    fn get_many(&self, keys: &[String]) -> Vec<Result<Option<Vec<u8>>, StoreError>> {
        let client = self.client.clone();
        let paths: Vec<ObjectPath> = keys.iter().map(|k| self.path(k)).collect();
        let fut = async move {
            futures::stream::iter(paths)
                .map(|p| get_one(client.clone(), p))
                .buffered(IN_FLIGHT)
                .collect::<Vec<_>>()
                .await
        };
        match self.block(fut) {
            Ok(results) => results
                .into_iter()
                .zip(keys)
                .map(|(r, k)| r.map_err(|e| self.error(k, e)))
                .collect(),
            Err(e) => keys.iter().map(|_| Err(e.clone())).collect(),
        }
    }

    fn missing(&self, items: &[(String, u64)]) -> Result<Vec<bool>, StoreError> {
        if items.len() > LIST_ABOVE {
            let stored: std::collections::HashMap<String, u64> = self
                .list("blobs/")?
                .into_iter()
                .map(|l| (l.key, l.size))
                .collect();
            return Ok(items
                .iter()
                .map(|(k, size)| stored.get(k) != Some(size))
                .collect());
        }
        let client = self.client.clone();
        let heads: Vec<(ObjectPath, u64)> = items.iter().map(|(k, s)| (self.path(k), *s)).collect();
        let fut = async move {
            futures::stream::iter(heads)
                .map(|(p, size)| {
                    let client = client.clone();
                    async move {
                        match client.head(&p).await {
                            Ok(meta) => Ok(meta.size != size),
                            Err(object_store::Error::NotFound { .. }) => Ok(true),
                            Err(e) => Err(e),
                        }
                    }
                })
                .buffered(IN_FLIGHT)
                .try_collect::<Vec<bool>>()
                .await
        };
        self.block(fut)?.map_err(|e| self.error("blobs", e))
    }

    fn put_blobs(&self, blobs: &[(String, Arc<Vec<u8>>)]) -> Result<(), StoreError> {
        let client = self.client.clone();
        let items: Vec<(String, ObjectPath, PutPayload)> = blobs
            .iter()
            .map(|(k, d)| (k.clone(), self.path(k), PutPayload::from(d.to_vec())))
            .collect();
        let fut = async move {
            futures::stream::iter(items)
                .map(|(key, p, data)| {
                    let client = client.clone();
                    // An object already there holds the same bytes (its key is their
                    // hash): it is left alone.
                    async move { create_one(client, p, data).await.map_err(|e| (key, e)) }
                })
                .buffer_unordered(IN_FLIGHT)
                .try_collect::<Vec<bool>>()
                .await
        };
        self.block(fut)?
            .map(|_| ())
            .map_err(|(key, e)| self.error(&key, e))
    }

    fn put(&self, key: &str, data: &[u8]) -> Result<(), StoreError> {
        let client = self.client.clone();
        let (path, payload) = (self.path(key), PutPayload::from(data.to_vec()));
        let fut = async move { client.put(&path, payload).await };
        self.block(fut)?.map(|_| ()).map_err(|e| self.error(key, e))
    }

    fn create(&self, key: &str, data: &[u8]) -> Result<bool, StoreError> {
        let fut = create_one(
            self.client.clone(),
            self.path(key),
            PutPayload::from(data.to_vec()),
        );
        self.block(fut)?.map_err(|e| self.error(key, e))
    }

    fn list(&self, prefix: &str) -> Result<Vec<Listed>, StoreError> {
        let client = self.client.clone();
        // Listing is by whole path segments; a partial last segment is filtered here.
        let (dir, _) = prefix.rsplit_once('/').unwrap_or(("", prefix));
        let base = if dir.is_empty() && self.config.prefix.is_empty() {
            None
        } else if dir.is_empty() {
            Some(ObjectPath::from(self.config.prefix.as_str()))
        } else {
            Some(self.path(dir))
        };
        let fut = async move {
            client
                .list(base.as_ref())
                .try_collect::<Vec<object_store::ObjectMeta>>()
                .await
        };
        let metas = self.block(fut)?.map_err(|e| self.error(prefix, e))?;
        let mut out: Vec<Listed> = metas
            .into_iter()
            .filter_map(|m| {
                let key = self.key_of(&m.location)?;
                key.starts_with(prefix).then(|| Listed {
                    key,
                    size: m.size,
                    modified: SystemTime::from(m.last_modified),
                })
            })
            .collect();
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        let client = self.client.clone();
        let path = self.path(key);
        let fut = async move {
            match client.delete(&path).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                Err(e) => Err(e),
            }
        };
        self.block(fut)?.map_err(|e| self.error(key, e))
    }
}
