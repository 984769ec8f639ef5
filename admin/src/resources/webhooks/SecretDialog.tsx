import { Box, Dialog, DialogActions, DialogContent, DialogTitle, Typography, Button as MuiButton } from "@mui/material";
import { CopyButton } from "../../common/fields";

/** The secret, once: after it is made it is not shown again (reset it to get a new one). */
export function SecretDialog({
  secret,
  onClose,
  title = "Signing secret",
}: {
  secret: string | null;
  onClose: () => void;
  title?: string;
}) {
  return (
    <Dialog open={!!secret} onClose={onClose} aria-labelledby="secret-title">
      <DialogTitle id="secret-title">{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" gutterBottom>
          Copy it now: it is not shown again.
        </Typography>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, bgcolor: "grey.100", p: 1, borderRadius: 1 }}>
          <Typography component="code" variant="body2" sx={{ wordBreak: "break-all" }} data-testid="secret">
            {secret}
          </Typography>
          {secret ? <CopyButton value={secret} label="Copy secret" /> : null}
        </Box>
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>I have copied it</MuiButton>
      </DialogActions>
    </Dialog>
  );
}
