// Backup codes, shown once: each signs in once in place of an authenticator code.
import { Alert, Box, Button } from "@mui/material";

export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <>
      <Alert severity="warning" sx={{ mb: 1 }}>
        Keep these backup codes somewhere safe. Each one signs you in once if you lose your authenticator app. They are shown only now.
      </Alert>
      <Box
        component="ul"
        aria-label="Backup codes"
        sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(130px, 1fr))", gap: 1 }}
      >
        {codes.map((c) => (
          <Box component="li" key={c} sx={{ fontFamily: "monospace", fontSize: 15 }}>
            {c}
          </Box>
        ))}
      </Box>
      <Box sx={{ display: "flex", gap: 1, mt: 2 }}>
        <Button variant="outlined" onClick={() => void navigator.clipboard?.writeText(codes.join("\n"))}>
          Copy
        </Button>
        <Button variant="contained" onClick={onDone}>
          I have saved them
        </Button>
      </Box>
    </>
  );
}
