"""Pictures: SVG positions, the replay viewer and the heatmap."""
