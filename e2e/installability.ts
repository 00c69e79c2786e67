import lighthouse, { Audit, Gatherer, type Artifacts, type Config } from 'lighthouse';

type BaseGatherer = InstanceType<typeof Gatherer>;
type GatherContext = Parameters<BaseGatherer['getArtifact']>[0];
/** Lighthouse's type of an artifact, which names its own artifacts only. */
type ArtifactValue = ReturnType<BaseGatherer['getArtifact']>;

/**
 * The installability check of the portal in Lighthouse 12 (decision 50). Lighthouse 12.0 removed
 * its PWA category with the `installable-manifest` audit and the gatherers behind it
 * (`WebAppManifest`, `InstallabilityErrors`), so the portal's config adds them back in its own
 * words: a gatherer that asks the browser what it found (Chrome's own reasons,
 * Page.getInstallabilityErrors; the manifest it fetched and parsed, Page.getAppManifest; each icon
 * as the page decodes it) and an audit, `installable-manifest`, that passes only when nothing
 * stops the install. The headless Chromium the journeys use where no other is installed
 * (chrome-headless-shell, @sparticuz/chromium) answers Page.getInstallabilityErrors with an empty
 * list whatever the page, so the audit also checks Chrome's criteria against the manifest itself.
 */

export const INSTALLABILITY_ARTIFACT = 'Installability';
export const INSTALLABILITY_AUDIT = 'installable-manifest';

/** An icon of the manifest as the page fetched and decoded it. */
export interface DecodedIcon {
  /** As the manifest names it. */
  src: string;
  sizes: string;
  purpose: string;
  /** The HTTP status (0: not fetched) and content type of its answer. */
  status: number;
  type: string | null;
  /** Its size once decoded; null when it could not be decoded. */
  width: number | null;
  height: number | null;
}

/** What the browser found on the page: the audit's input. */
export interface InstallabilityFindings {
  /** Chrome's own reasons not to install (Page.getInstallabilityErrors). */
  chromeErrors: { errorId: string; errorArguments: { name: string; value: string }[] }[];
  /** The manifest's address; empty when the page names none. */
  manifestUrl: string;
  /** The manifest as served. */
  manifestText: string;
  /** Chrome's parse errors; a critical one means the manifest was not read. */
  parseErrors: { message: string; critical: number }[];
  /** The page's own address. */
  pageUrl: string;
  secureContext: boolean;
  icons: DecodedIcon[];
}

/** The display modes an installed app opens in (a `browser` manifest installs nothing). */
const APP_DISPLAYS = ['fullscreen', 'standalone', 'minimal-ui', 'window-controls-overlay'];
/** The icon sizes the app must have, square, for any purpose: the install dialog's and the splash screen's. */
const ICON_SIZES = [192, 512];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** The manifest's icons as listed (src, sizes, purpose), whatever else it holds. */
export function manifestIcons(manifestText: string): { src: string; sizes: string; purpose: string }[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch {
    return [];
  }
  if (!isRecord(manifest) || !Array.isArray(manifest.icons)) return [];
  return manifest.icons.filter(isRecord).map((icon) => ({ src: text(icon.src), sizes: text(icon.sizes), purpose: text(icon.purpose) || 'any' }));
}

/** Every reason the browser would not offer to install the page; none when it would. */
export function installabilityProblems(found: InstallabilityFindings): string[] {
  const problems = found.chromeErrors.map(
    (error) => `Chrome: ${error.errorId}${error.errorArguments.length > 0 ? ` (${error.errorArguments.map((arg) => `${arg.name} ${arg.value}`).join(', ')})` : ''}`,
  );
  if (!found.secureContext) problems.push('The page is not a secure context (https or localhost)');
  if (!found.manifestUrl) return [...problems, 'The page names no manifest (<link rel="manifest">)'];
  const critical = found.parseErrors.filter((error) => error.critical);
  if (critical.length > 0) return [...problems, ...critical.map((error) => `The manifest cannot be read: ${error.message}`)];
  let manifest: unknown;
  try {
    manifest = JSON.parse(found.manifestText);
  } catch {
    return [...problems, 'The manifest is not JSON'];
  }
  if (!isRecord(manifest)) return [...problems, 'The manifest is not a JSON object'];

  if (!text(manifest.name) && !text(manifest.short_name)) problems.push('The manifest has neither name nor short_name');
  const startUrl = text(manifest.start_url);
  if (!startUrl) problems.push('The manifest has no start_url');
  else {
    const start = new URL(startUrl, found.manifestUrl);
    const scope = new URL(text(manifest.scope) || '.', found.manifestUrl);
    if (start.origin !== new URL(found.pageUrl).origin) problems.push(`start_url ${start.href} is not on the page's origin`);
    else if (!start.href.startsWith(scope.href)) problems.push(`start_url ${start.href} is outside the scope ${scope.href}`);
  }
  const overrides = Array.isArray(manifest.display_override) ? manifest.display_override.map(text) : [];
  const displays = [...overrides, text(manifest.display) || 'browser'];
  if (!displays.some((display) => APP_DISPLAYS.includes(display))) {
    problems.push(`The manifest's display is ${text(manifest.display) || 'not set'}: an app needs ${APP_DISPLAYS.slice(0, 3).join(', ')}`);
  }
  if (manifest.prefer_related_applications === true) problems.push('The manifest prefers a store app (prefer_related_applications)');

  for (const size of ICON_SIZES) {
    const declared = found.icons.filter((icon) => icon.purpose.split(/\s+/).includes('any') && icon.sizes.split(/\s+/).includes(`${size}x${size}`));
    if (declared.length === 0) {
      problems.push(`The manifest has no ${size}x${size} icon for any purpose`);
      continue;
    }
    if (!declared.some((icon) => icon.width === size && icon.height === size)) {
      const seen = declared.map((icon) => `${icon.src}: ${icon.status === 200 ? (icon.width === null ? `${icon.type ?? 'no type'}, not an image` : `${icon.width}x${icon.height}`) : `status ${icon.status}`}`);
      problems.push(`No ${size}x${size} icon loads at that size (${seen.join('; ')})`);
    }
  }
  return problems;
}

/* The page's side of the gatherer: run in the page by Lighthouse, so it stands alone. */
async function decodeIcons(sources: { src: string; sizes: string; purpose: string }[], manifestUrl: string) {
  const icons = [];
  for (const icon of sources) {
    const found = { ...icon, status: 0, type: null as string | null, width: null as number | null, height: null as number | null };
    try {
      const response = await fetch(new URL(icon.src, manifestUrl), { cache: 'no-store' });
      found.status = response.status;
      found.type = response.headers.get('content-type');
      if (response.ok) {
        const bitmap = await createImageBitmap(await response.blob());
        found.width = bitmap.width;
        found.height = bitmap.height;
        bitmap.close();
      }
    } catch {
      // Not fetched or not an image: the nulls say so.
    }
    icons.push(found);
  }
  return { secureContext: window.isSecureContext, pageUrl: location.href, icons };
}

/** Asks the browser, after the page has loaded, what it makes of the page as an app. */
class InstallabilityGatherer extends Gatherer {
  override meta: BaseGatherer['meta'] = { supportedModes: ['navigation', 'snapshot'] };

  override getArtifact(context: GatherContext): ArtifactValue {
    return this.findings(context) as unknown as ArtifactValue;
  }

  private async findings(context: GatherContext): Promise<InstallabilityFindings> {
    const session = context.driver.defaultSession;
    const manifest = await session.sendCommand('Page.getAppManifest', {});
    const { installabilityErrors } = await session.sendCommand('Page.getInstallabilityErrors');
    const manifestText = manifest.data ?? '';
    const page = await context.driver.executionContext.evaluate(decodeIcons, { args: [manifestIcons(manifestText), manifest.url], useIsolation: true });
    return {
      chromeErrors: installabilityErrors,
      manifestUrl: manifest.url,
      manifestText,
      parseErrors: manifest.errors,
      ...page,
    };
  }
}

class InstallableAudit extends Audit {
  static override get meta() {
    return {
      id: INSTALLABILITY_AUDIT,
      title: 'The web app manifest and the page meet the installability requirements',
      failureTitle: 'The web app manifest or the page does not meet the installability requirements',
      description: "Chrome's own installability check and its criteria checked against the manifest it fetched: a name, a start_url in scope, an app display mode, 192 and 512 px icons that load, a secure page.",
      requiredArtifacts: [INSTALLABILITY_ARTIFACT as keyof Artifacts],
    };
  }

  static override audit(artifacts: Artifacts) {
    const found = (artifacts as unknown as Record<string, InstallabilityFindings>)[INSTALLABILITY_ARTIFACT]!;
    const problems = installabilityProblems(found);
    return {
      score: problems.length === 0 ? 1 : 0,
      displayValue: problems.length === 0 ? undefined : `${problems.length} problem${problems.length === 1 ? '' : 's'}`,
      details: Audit.makeTableDetails([{ key: 'reason', valueType: 'text', label: 'Problem' }], problems.map((reason) => ({ reason }))),
    };
  }
}

/** Lighthouse's config for this one audit: nothing else is gathered. */
export const INSTALLABILITY_CONFIG: Config = {
  artifacts: [{ id: INSTALLABILITY_ARTIFACT, gatherer: { instance: new InstallabilityGatherer() } }],
  audits: [{ implementation: InstallableAudit }],
  settings: { onlyAudits: [INSTALLABILITY_AUDIT] },
};

export interface InstallabilityResult {
  score: number | null;
  problems: string[];
  findings: InstallabilityFindings;
}

/** Runs Lighthouse's navigation on `url` in the Chromium listening on `port`, with the installability audit alone. */
export async function auditInstallability(url: string, port: number): Promise<InstallabilityResult> {
  const result = await lighthouse(url, { port, logLevel: 'error', output: 'json' }, INSTALLABILITY_CONFIG);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.message}`);
  const audit = result.lhr.audits[INSTALLABILITY_AUDIT];
  if (!audit) throw new Error(`Lighthouse ran no ${INSTALLABILITY_AUDIT} audit`);
  if (audit.errorMessage) throw new Error(`${INSTALLABILITY_AUDIT}: ${audit.errorMessage}`);
  const rows = audit.details?.type === 'table' ? audit.details.items : [];
  const findings = (result.artifacts as unknown as Record<string, InstallabilityFindings>)[INSTALLABILITY_ARTIFACT]!;
  return { score: audit.score, problems: rows.map((row) => String(row.reason)), findings };
}
