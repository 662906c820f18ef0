/** Finds out why a file failed to show: probes the link, and on an error answer fetches the details again. */
import type { DriveFile } from '@haul/shared';
import { forgetDetail, probeLink, viewerDetail } from './viewer-api';
import { failureOfProbe, type MediaFault, type ViewerFailure } from './viewer-errors';
import type { ViewerSource } from './viewer-store';

export async function diagnose(file: DriveFile, source: ViewerSource, fault: MediaFault): Promise<ViewerFailure> {
  if (!fault.link) return failureOfProbe(fault, { status: 0 });
  const probe = await probeLink(fault.link);
  if (probe.status < 0 || probe.status < 300) return failureOfProbe(fault, probe);
  // An error answer: the file may have gone to the trash since its details were read.
  forgetDetail(file, source);
  const refreshed = await viewerDetail(file, source).then(
    (detail) => ({ detail }),
    (error: unknown) => ({ error }),
  );
  return failureOfProbe(fault, probe, refreshed);
}
