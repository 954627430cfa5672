"""The operator's office: its screens' figures, reports and alarms (the figures side), and its
access, audit log, disputes and players' screens."""
