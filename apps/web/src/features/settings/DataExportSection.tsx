import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { errorMessage } from '../../lib/errors';
import { dataExportWords } from './data-export';
import { useDataExport, useRequestDataExport } from './sign-in-security-api';

/**
 * Settings → Download my data (issue 12): a ZIP built in the background, with progress. The whole
 * family's data is the account owner's to download (issue 19): a co-parent reads why instead.
 */
export function DataExportSection({ canExport = true }: { canExport?: boolean }) {
  if (!canExport) {
    return (
      <Card className="mt-6">
        <h2 className="text-lg font-semibold text-slate-900">Download my data</h2>
        <p className="mt-1 text-sm text-slate-600">
          Only the account owner can download a copy of the family's data.
        </p>
      </Card>
    );
  }
  return <DataExport />;
}

function DataExport() {
  const [exportId, setExportId] = useState<string>();
  const request = useRequestDataExport();
  const status = useDataExport(exportId);
  const words = dataExportWords(exportId === undefined ? undefined : status.data);
  const isBuilding = words.isBuilding || request.isPending;

  return (
    <Card className="mt-6">
      <h2 className="text-lg font-semibold text-slate-900">Download my data</h2>
      <p className="mt-1 text-sm text-slate-600">
        A ZIP file with everything your family's account holds: account, parents, children and their
        settings, computers, keychains, requests, notifications, security events, the audit log and
        activity with its screenshots. We also email you the link; it works for 24 hours.
      </p>
      {words.text && (
        <p role="status" className="mt-3 text-sm text-slate-700">
          {words.text}
        </p>
      )}
      {isBuilding && (
        <div
          role="progressbar"
          aria-label="Preparing your data"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={words.progress}
          className="mt-2 h-2 w-full overflow-hidden rounded-full bg-slate-100"
        >
          <div className="h-full bg-violet-600" style={{ width: `${words.progress}%` }} />
        </div>
      )}
      {(request.error || status.error) && (
        <p role="alert" className="mt-3 text-sm text-red-800">
          {errorMessage((request.error ?? status.error)!)}
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        {status.data?.status === 'ready' && status.data.url && (
          <a
            href={status.data.url}
            className="inline-flex items-center rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-700"
          >
            Download ZIP
          </a>
        )}
        <Button
          variant="secondary"
          isLoading={isBuilding}
          onClick={() =>
            request.mutate(undefined, { onSuccess: (value) => setExportId(value.exportId) })
          }
        >
          {exportId ? 'Prepare a new copy' : 'Prepare my data'}
        </Button>
      </div>
    </Card>
  );
}
