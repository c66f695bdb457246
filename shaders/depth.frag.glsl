out vec4 o_colour;

void main() {
    o_colour = vec4(0.0);
}
