export interface SourceProps {
  source: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}
