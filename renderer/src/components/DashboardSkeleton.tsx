import './dash-view.css';

/** Skeleton blocks shaped like the dashboard, so the layout does not jump when data arrives. */
export function DashboardSkeleton() {
  return (
    <div className="page" aria-busy="true" aria-label="Loading the project">
      <div className="dash-tiles">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="dash-tile skeleton" />
        ))}
      </div>
      <div className="grid-2">
        <div className="panel skeleton dash-tall" />
        <div className="panel skeleton dash-tall" />
      </div>
      <div className="panel skeleton dash-table-skeleton" />
      <p className="dash-loading-note">Scanning skills, targets and the lock…</p>
    </div>
  );
}
